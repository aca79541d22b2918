import type { MarketplaceEntry, MarketplacePreview, PluginProblem } from '@bosun/protocol';
import { Badge } from '../../ui/feedback.tsx';
import { shortSha } from './skills-keys.ts';

/** Problems of a plugin or a marketplace, each with its severity and the file concerned. */
export function ProblemList({ problems }: { problems: readonly PluginProblem[] }) {
  if (problems.length === 0) return null;
  return (
    <ul className="problem-list">
      {problems.map((problem, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a fixed list read once
        <li key={index} className={`problem problem-${problem.severity}`}>
          <Badge tone={problem.severity === 'error' ? 'danger' : 'warning'}>
            {problem.severity === 'error' ? 'Error' : 'Warning'}
          </Badge>{' '}
          {problem.path && <code className="problem-path">{problem.path}: </code>}
          {problem.message}
        </li>
      ))}
    </ul>
  );
}

/** A list of component names (skills, commands...) as code, or a dash. */
export function Names({ names, empty = '—' }: { names: readonly string[]; empty?: string }) {
  if (names.length === 0) return <span className="muted">{empty}</span>;
  return (
    <ul className="name-list">
      {names.map((name) => (
        <li key={name}>
          <code>{name}</code>
        </li>
      ))}
    </ul>
  );
}

const PARTS = [
  ['skills', 'Skills'],
  ['commands', 'Commands'],
  ['agents', 'Agents'],
  ['hooks', 'Hooks'],
  ['mcp_servers', 'MCP servers'],
  ['unsupported', 'Not loaded by Bosun'],
] as const;

function PreviewEntry({ entry }: { entry: MarketplaceEntry }) {
  const contents = entry.contents;
  return (
    <li className="preview-entry">
      <div className="row preview-entry-head">
        <strong>{entry.name}</strong>
        {entry.version && <span className="muted small">v{entry.version}</span>}
        {entry.problems.some((problem) => problem.severity === 'error') && <Badge tone="danger">Problems</Badge>}
      </div>
      {entry.description && <p className="muted small preview-description">{entry.description}</p>}
      {contents === null ? (
        <p className="small">Not loadable: see the problems below.</p>
      ) : contents === undefined ? (
        <p className="small muted">
          In another repository{entry.source ? ` (${entry.source})` : ''}: what it holds is read when it loads.
        </p>
      ) : (
        <dl className="preview-parts">
          {PARTS.filter(([key]) => key !== 'unsupported' || contents.unsupported.length > 0).map(([key, label]) => (
            <div key={key}>
              <dt>{label}</dt>
              <dd>
                <Names names={contents[key]} empty="none" />
              </dd>
            </div>
          ))}
        </dl>
      )}
      <ProblemList problems={entry.problems} />
    </li>
  );
}

/** What a marketplace brings, read at a commit (nothing registered yet). */
export function MarketplacePreviewView({ preview }: { preview: MarketplacePreview }) {
  const listing = preview.marketplace;
  return (
    <section className="marketplace-preview" aria-labelledby="marketplace-preview-heading">
      <h3 id="marketplace-preview-heading">
        Preview: {listing.name ?? preview.source}{' '}
        <span className="muted small">at commit {shortSha(preview.resolved_ref)}</span>
      </h3>
      {listing.description && <p className="muted small">{listing.description}</p>}
      <ProblemList problems={listing.problems} />
      {listing.entries.length === 0 ? (
        <p className="muted">This marketplace lists no plugin.</p>
      ) : (
        <ul className="preview-entries">
          {listing.entries.map((entry) => (
            <PreviewEntry key={entry.name} entry={entry} />
          ))}
        </ul>
      )}
    </section>
  );
}
