import type { DirectoryMarketplace, DirectoryPlugin } from '@bosun/protocol';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Badge, ErrorNotice, Loading, Notice } from '../../ui/feedback.tsx';
import { useDebounced } from '../../ui/use-debounced.ts';
import { useDirectory } from '../plugin-start/queries.ts';
import './plugins.css';

/** Featured plugins first, then the marketplace's order. */
function featuredFirst(plugins: readonly DirectoryPlugin[]): DirectoryPlugin[] {
  return [...plugins].sort((a, b) => Number(b.featured) - Number(a.featured));
}

/**
 * The Plugin Directory: the instance marketplace's plugins as cards, searched by text and filtered by tag. The
 * search and the tag are query parameters (`?q=weather&tag=demo`), so a filtered view can be shared.
 */
export default function PluginsPage() {
  const [params, setParams] = useSearchParams();
  const q = params.get('q') ?? '';
  const tag = params.get('tag') ?? '';
  const [text, setText] = useState(q);
  const settled = useDebounced(text.trim(), 250);
  const id = useId();

  // The typed text goes to the URL once it settles (replacing the entry: no history step per key). Only a new
  // settled text does: Clear (or Back) changes the URL while the old text is still the settled one.
  const pushed = useRef(settled);
  useEffect(() => {
    if (settled === pushed.current) return;
    pushed.current = settled;
    if (settled === q) return;
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (settled) next.set('q', settled);
        else next.delete('q');
        return next;
      },
      { replace: true },
    );
  }, [settled, q, setParams]);
  // Back and forward (or a shared link) change the URL: the box follows.
  useEffect(() => {
    setText((current) => (current.trim() === q ? current : q));
  }, [q]);

  const all = useDirectory();
  const filtered = useDirectory({ ...(q ? { q } : {}), ...(tag ? { tag } : {}) });
  const tags = useMemo(() => tagCounts(all.data?.plugins ?? []), [all.data]);
  const setTag = (next: string | null) =>
    setParams((current) => {
      const out = new URLSearchParams(current);
      if (next) out.set('tag', next);
      else out.delete('tag');
      return out;
    });
  const clear = () => {
    setText('');
    setParams(new URLSearchParams());
  };

  const marketplace = all.data?.marketplace;
  const plugins = featuredFirst(filtered.data?.plugins ?? []);
  const filtering = Boolean(q || tag);

  return (
    <main className="page plugins-page">
      <div className="plugins-intro">
        <h1>Plugins</h1>
        <p className="muted">
          Plugins add skills, commands, agents, hooks and MCP servers to a conversation. Pick one to see what it holds
          and start a conversation with it.
        </p>
      </div>

      {all.isPending && <Loading what="the Plugin Directory" />}
      {all.error && <ErrorNotice error={all.error} onRetry={() => all.refetch()} />}
      {all.data && !marketplace && <NotConfigured />}
      {marketplace && (
        <>
          <MarketplaceLine marketplace={marketplace} />
          <search className="plugins-filters" aria-label="Filter plugins">
            <div className="field plugins-search">
              <label htmlFor={`${id}-q`}>Search plugins</label>
              <input
                id={`${id}-q`}
                type="search"
                className="input"
                value={text}
                onChange={(event) => setText(event.target.value)}
                onKeyDown={(event) => {
                  if (event.key === 'Escape' && text) {
                    event.preventDefault();
                    setText('');
                  }
                }}
                placeholder="Name, description or tag"
                autoComplete="off"
              />
            </div>
            {tags.length > 0 && (
              <fieldset className="tag-filters">
                <legend>Tags</legend>
                <div className="row">
                  <button type="button" className="tag-filter" aria-pressed={!tag} onClick={() => setTag(null)}>
                    All
                  </button>
                  {tags.map(([name, count]) => (
                    <button
                      key={name}
                      type="button"
                      className="tag-filter"
                      aria-pressed={tag.toLowerCase() === name.toLowerCase()}
                      onClick={() => setTag(tag.toLowerCase() === name.toLowerCase() ? null : name)}
                    >
                      {name}{' '}
                      <span className="tag-count" aria-label={`${count} plugins`}>
                        {count}
                      </span>
                    </button>
                  ))}
                </div>
              </fieldset>
            )}
          </search>

          <div className="visually-hidden" aria-live="polite">
            {filtered.data && `${plugins.length} ${plugins.length === 1 ? 'plugin' : 'plugins'} shown`}
          </div>
          {filtered.error && <ErrorNotice error={filtered.error} onRetry={() => filtered.refetch()} />}
          {filtered.isPending && <Loading what="plugins" />}
          {filtered.data && plugins.length === 0 && (
            <div className="card plugins-empty stack">
              {filtering ? (
                <>
                  <p>
                    No plugin matches{q && <> “{q}”</>}
                    {tag && <> with the tag “{tag}”</>}.
                  </p>
                  <button type="button" className="btn" onClick={clear}>
                    Clear the search and filters
                  </button>
                </>
              ) : (
                <p>
                  The marketplace <code>{marketplace.source}</code> lists no plugins yet. Add entries to its{' '}
                  <code>marketplace.json</code>; the directory reads it again within a few minutes.
                </p>
              )}
            </div>
          )}
          {plugins.length > 0 && (
            <ul className="plugin-cards" aria-label="Plugins" aria-busy={filtered.isFetching || undefined}>
              {plugins.map((plugin) => (
                <li key={plugin.id}>
                  <PluginCard plugin={plugin} activeTag={tag} onTag={setTag} />
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </main>
  );
}

function tagCounts(plugins: readonly DirectoryPlugin[]): [string, number][] {
  const counts = new Map<string, [string, number]>();
  for (const plugin of plugins) {
    for (const tag of new Set(plugin.tags.map((t) => t.toLowerCase()))) {
      const name = plugin.tags.find((t) => t.toLowerCase() === tag) ?? tag;
      const entry = counts.get(tag);
      counts.set(tag, [entry?.[0] ?? name, (entry?.[1] ?? 0) + 1]);
    }
  }
  return [...counts.values()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
}

function PluginCard({
  plugin,
  activeTag,
  onTag,
}: { plugin: DirectoryPlugin; activeTag: string; onTag(tag: string | null): void }) {
  const id = useId();
  return (
    <article className="card plugin-card" aria-labelledby={`${id}-name`}>
      <div className="plugin-card-head">
        <h2 id={`${id}-name`} className="plugin-card-name">
          <Link to={`/plugins/${encodeURIComponent(plugin.id)}`}>{plugin.name}</Link>
        </h2>
        {plugin.featured && <Badge tone="info">Featured</Badge>}
        {plugin.problems.length > 0 && (
          <Badge tone="warning" title={plugin.problems.join('\n')}>
            {plugin.problems.length} {plugin.problems.length === 1 ? 'problem' : 'problems'}
          </Badge>
        )}
      </div>
      {plugin.version && <p className="muted plugin-card-version">Version {plugin.version}</p>}
      <p className="plugin-card-description">{plugin.description ?? <span className="muted">No description.</span>}</p>
      {plugin.tags.length > 0 && (
        <ul className="plugin-tags" aria-label={`Tags of ${plugin.name}`}>
          {plugin.tags.map((tag) => (
            <li key={tag}>
              <button
                type="button"
                className="plugin-tag"
                aria-pressed={activeTag.toLowerCase() === tag.toLowerCase()}
                aria-label={`Filter by tag ${tag}`}
                onClick={() => onTag(activeTag.toLowerCase() === tag.toLowerCase() ? null : tag)}
              >
                {tag}
              </button>
            </li>
          ))}
        </ul>
      )}
    </article>
  );
}

function MarketplaceLine({ marketplace }: { marketplace: DirectoryMarketplace }) {
  return (
    <>
      <p className="muted plugins-marketplace">
        From the marketplace <strong>{marketplace.name ?? marketplace.source}</strong>
        {marketplace.description && <> ({marketplace.description})</>}, <code>{marketplace.source}</code>
        {marketplace.commit && (
          <>
            {' '}
            at <code title={marketplace.commit}>{marketplace.commit.slice(0, 7)}</code>
          </>
        )}
        .
      </p>
      {marketplace.problems.length > 0 && (
        <Notice tone="warning" title="The marketplace could not be read completely:">
          <ul className="plain-list">
            {marketplace.problems.map((problem) => (
              <li key={problem}>{problem}</li>
            ))}
          </ul>
          {marketplace.commit ? 'The plugins below are from the last time it was read.' : null}
        </Notice>
      )}
    </>
  );
}

const CONFIG_EXAMPLE = `BOSUN_PLUGIN_DIRECTORY_SOURCE=github:acme/plugins npx bosun serve
# or: npx bosun serve --plugin-directory-source github:acme/plugins
# or in the --config file:  plugin_directory_source: github:acme/plugins`;

/** No marketplace configured: what the operator does about it. */
function NotConfigured() {
  return (
    <div className="card plugins-empty stack">
      <h2 className="plugins-empty-title">No Plugin Directory on this Bosun yet</h2>
      <p>
        The directory lists the plugins of the instance plugin marketplace: a Git repository with a{' '}
        <code>.claude-plugin/marketplace.json</code>. Whoever runs this server configures it with the{' '}
        <code>plugin_directory_source</code> setting, for example:
      </p>
      <pre className="plugins-config">
        <code>{CONFIG_EXAMPLE}</code>
      </pre>
      <p className="muted">
        <code>plugin_directory_ref</code> and <code>plugin_directory_path</code> choose a branch and a folder,{' '}
        <code>plugin_directory_featured</code> the plugins shown first. Meanwhile, a launch link someone shares with you
        (<code>/launch?plugins=…</code>) still works.
      </p>
    </div>
  );
}
