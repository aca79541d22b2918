import type { DirectoryPlugin, DirectoryPluginConfig, MarketplaceEntry, MarketplacePreview } from '@bosun/protocol';
import { useQuery } from '@tanstack/react-query';
import { useApi } from '../../api/client.tsx';
import { ErrorNotice, Loading, Notice } from '../../ui/feedback.tsx';
import { pluginKeys, useDirectory } from '../plugin-start/queries.ts';

/** What the plugin holds, read as a conversation loads it (the marketplace at the commit the directory read). */
export function Contents({ plugin }: { plugin: DirectoryPlugin }) {
  const api = useApi();
  const directory = useDirectory();
  const marketplace = directory.data?.marketplace;
  const ref = marketplace?.commit ?? marketplace?.ref ?? null;
  const contents = useQuery({
    queryKey: pluginKeys.contents(marketplace?.source ?? '', ref, marketplace?.repo_path ?? null),
    // A preview request (not the older list of registrations) is answered a preview.
    queryFn: async () =>
      (await api.post('/api/v1/skills/marketplace-skills', {
        body: { source: marketplace?.source ?? '', ref, repo_path: marketplace?.repo_path ?? null },
      })) as MarketplacePreview,
    enabled: Boolean(marketplace),
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });
  const entry: MarketplaceEntry | undefined = contents.data?.marketplace.entries.find(
    (item) => item.name === plugin.id,
  );
  const held = entry?.contents;
  const rows: [string, string[]][] = held
    ? [
        ['Skills', held.skills],
        ['Commands', held.commands],
        ['Agents', held.agents],
        ['Hooks', held.hooks],
        ['MCP servers', held.mcp_servers],
        ['Not loaded by Bosun', held.unsupported],
      ]
    : [];
  return (
    <section className="card plugin-section" aria-labelledby="contents-heading">
      <h2 id="contents-heading">What it holds</h2>
      {(directory.isPending || contents.isPending) && !contents.error && !directory.error && (
        <Loading what="what the plugin holds" />
      )}
      {Boolean(directory.error ?? contents.error) && (
        <ErrorNotice error={directory.error ?? contents.error} onRetry={() => contents.refetch()} />
      )}
      {contents.data && !entry && <p className="muted">The marketplace no longer lists this plugin.</p>}
      {entry && held === undefined && (
        <p className="muted">It lives in another repository: what it holds is read when a conversation loads it.</p>
      )}
      {entry && held === null && <p className="muted">It cannot be loaded: see its problems below.</p>}
      {held && (
        <dl className="plugin-contents">
          {rows.map(([label, items]) =>
            items.length === 0 && label === 'Not loaded by Bosun' ? null : (
              <div key={label} className="contents-row">
                <dt>{label}</dt>
                <dd>
                  {items.length === 0 ? (
                    <span className="muted">none</span>
                  ) : (
                    <ul className="inline-list">
                      {items.map((item) => (
                        <li key={item}>
                          <code>{item}</code>
                        </li>
                      ))}
                    </ul>
                  )}
                </dd>
              </div>
            ),
          )}
        </dl>
      )}
      {entry && entry.problems.length > 0 && (
        <Notice tone="warning" title="Problems found while reading it:">
          <ul className="plain-list">
            {entry.problems.map((problem) => (
              <li key={`${problem.path}:${problem.message}`}>
                {problem.severity === 'error' ? 'Not loaded' : 'Warning'}
                {problem.path && (
                  <>
                    {' '}
                    (<code>{problem.path}</code>)
                  </>
                )}
                : {problem.message}
              </li>
            ))}
          </ul>
        </Notice>
      )}
    </section>
  );
}
export function Problems({ plugin, config }: { plugin: DirectoryPlugin; config: DirectoryPluginConfig | undefined }) {
  const problems = [...plugin.problems, ...(config?.problems ?? [])];
  if (problems.length === 0) return null;
  return (
    <section className="card plugin-section" aria-labelledby="problems-heading">
      <h2 id="problems-heading">Problems of its entry</h2>
      <ul className="plain-list">
        {problems.map((problem) => (
          <li key={problem}>{problem}</li>
        ))}
      </ul>
    </section>
  );
}
