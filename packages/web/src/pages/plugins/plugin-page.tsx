import { BosunApiError } from '@bosun/client';
import type { DirectoryPlugin, DirectoryPluginConfig } from '@bosun/protocol';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { useApi } from '../../api/client.tsx';
import { Button } from '../../ui/button.tsx';
import { Badge, ErrorNotice, Loading, Notice } from '../../ui/feedback.tsx';
import { PluginReview } from '../plugin-start/plugin-review.tsx';
import { pluginKeys } from '../plugin-start/queries.ts';
import { type ReviewPlugin, isCommit } from '../plugin-start/start-plugins.ts';
import { LaunchLinkBox } from './launch-link-box.tsx';
import { Contents, Problems } from './plugin-contents.tsx';
import './plugins.css';

/** A plugin of the directory: what it holds, its parameters and examples, its launch link, and a start with it. */
export default function PluginPage() {
  const { pluginId = '' } = useParams();
  const api = useApi();
  const plugin = useQuery({
    queryKey: pluginKeys.plugin(pluginId),
    queryFn: () => api.get('/api/v1/plugin-directory/plugins/{plugin_id}', { params: { plugin_id: pluginId } }),
    retry: false,
  });
  const config = useQuery({
    queryKey: pluginKeys.config(pluginId),
    queryFn: () => api.get('/api/v1/plugin-directory/plugins/{plugin_id}/config', { params: { plugin_id: pluginId } }),
    retry: false,
  });

  return (
    <main className="page plugin-page">
      <nav aria-label="Breadcrumb" className="plugin-breadcrumb">
        <Link to="/plugins">Plugins</Link> <span aria-hidden="true">›</span>{' '}
        <span aria-current="page">{plugin.data?.name ?? pluginId}</span>
      </nav>
      {plugin.isPending && <Loading what="the plugin" />}
      {plugin.error && (
        <>
          <h1>{pluginId}</h1>
          {plugin.error instanceof BosunApiError && plugin.error.status === 404 ? (
            <Notice tone="error">
              The Plugin Directory has no plugin named “{pluginId}”: the marketplace may have removed or renamed it.
            </Notice>
          ) : (
            <ErrorNotice error={plugin.error} onRetry={() => plugin.refetch()} />
          )}
          <p>
            <Link to="/plugins">Back to the Plugin Directory</Link> to pick another plugin.
          </p>
        </>
      )}
      {plugin.data && <PluginDetails plugin={plugin.data} config={config} />}
    </main>
  );
}

interface ConfigState {
  data?: DirectoryPluginConfig | undefined;
  error: unknown;
  isPending: boolean;
  refetch(): unknown;
}

function PluginDetails({ plugin, config }: { plugin: DirectoryPlugin; config: ConfigState }) {
  const [review, setReview] = useState<{ message: string; round: number } | null>(null);
  const entryCommand = config.data?.entry_command ?? null;
  const defaults = defaultValues(config.data);
  const spec = {
    source: plugin.source.source,
    ref: plugin.source.ref,
    repo_path: plugin.source.repo_path,
    parameters: Object.keys(defaults).length > 0 ? defaults : null,
  };
  const open = (message: string | null) =>
    setReview((previous) => ({ message: message ?? '', round: (previous?.round ?? 0) + 1 }));
  const reviewPlugin: ReviewPlugin = {
    key: plugin.id,
    name: plugin.name,
    description: plugin.description,
    spec,
    schema: config.data?.parameters ?? {},
    problems: [],
  };

  return (
    <>
      <div className="plugin-head">
        <h1>{plugin.name}</h1>
        {plugin.version && <Badge>Version {plugin.version}</Badge>}
        {plugin.featured && <Badge tone="info">Featured</Badge>}
      </div>
      <p>{plugin.description ?? <span className="muted">No description.</span>}</p>
      {plugin.tags.length > 0 && (
        <ul className="inline-list plugin-page-tags" aria-label="Tags">
          {plugin.tags.map((tag) => (
            <li key={tag}>
              <Link className="plugin-tag" to={`/plugins?tag=${encodeURIComponent(tag)}`}>
                {tag}
              </Link>
            </li>
          ))}
        </ul>
      )}

      <div className="plugin-start-row">
        <Button variant="primary" onClick={() => open(entryCommand)}>
          Create New Conversation
        </Button>
        <span className="muted hint-text">
          You review its source and parameters and confirm your trust before it starts.
        </span>
      </div>

      <div className="plugin-layout">
        <div>
          <Contents plugin={plugin} />
          <section className="card plugin-section" aria-labelledby="parameters-heading">
            <h2 id="parameters-heading">Parameters</h2>
            {config.isPending && <Loading what="its parameters" />}
            {Boolean(config.error) && <ErrorNotice error={config.error} onRetry={() => config.refetch()} />}
            {config.data && <Parameters config={config.data} />}
          </section>
          {config.data && config.data.examples.length > 0 && (
            <section className="card plugin-section" aria-labelledby="examples-heading">
              <h2 id="examples-heading">Examples</h2>
              <ul className="examples">
                {config.data.examples.map((example) => (
                  <li key={`${example.title}\n${example.prompt}`} className="example">
                    <strong>{example.title}</strong>
                    <code className="example-prompt">{example.prompt}</code>
                    <Button
                      small
                      onClick={() => open(example.prompt)}
                      aria-label={`Start with this example: ${example.title}`}
                    >
                      Start with this example
                    </Button>
                  </li>
                ))}
              </ul>
            </section>
          )}
          <Problems plugin={plugin} config={config.data} />
        </div>

        <aside className="plugin-aside" aria-label="Start">
          <div className="card stack">
            <h2 className="aside-heading">Where it comes from</h2>
            <dl className="plugin-source-list">
              <dt>Source</dt>
              <dd>
                <code>{plugin.source.source}</code>
              </dd>
              <dt>Commit</dt>
              <dd>
                {plugin.source.ref ? (
                  <code title={plugin.source.ref}>
                    {isCommit(plugin.source.ref) ? plugin.source.ref.slice(0, 12) : plugin.source.ref}
                  </code>
                ) : (
                  <span className="muted">default branch</span>
                )}
              </dd>
              <dt>Path</dt>
              <dd>
                {plugin.source.repo_path ? (
                  <code>{plugin.source.repo_path}</code>
                ) : (
                  <span className="muted">repository root</span>
                )}
              </dd>
              {entryCommand && (
                <>
                  <dt>Starts with</dt>
                  <dd>
                    <code>{entryCommand}</code>
                  </dd>
                </>
              )}
            </dl>
          </div>
          <LaunchLinkBox spec={spec} message={entryCommand} ready={!config.isPending} />
        </aside>
      </div>

      {review && (
        <div className="plugin-review-slot">
          <PluginReview
            key={review.round}
            plugins={[reviewPlugin]}
            initialMessage={review.message}
            heading={`Start a conversation with ${plugin.name}`}
            focusOnMount
          />
        </div>
      )}
    </>
  );
}

function defaultValues(config: DirectoryPluginConfig | undefined): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {};
  for (const [name, parameter] of Object.entries(config?.parameters ?? {})) {
    if (parameter.default !== null) out[name] = parameter.default;
  }
  return out;
}

function Parameters({ config }: { config: DirectoryPluginConfig }) {
  const entries = Object.entries(config.parameters);
  if (entries.length === 0) return <p className="muted">It takes no parameters.</p>;
  return (
    <>
      <p className="muted">
        Their values are given to the plugin with the first message; you can change them before a start.
      </p>
      <ul className="parameter-list">
        {entries.map(([name, parameter]) => (
          <li key={name} className="parameter-item">
            <div className="row">
              <code className="parameter-name">{name}</code>
              <Badge>{parameter.type}</Badge>
              {parameter.required && <Badge tone="warning">required</Badge>}
            </div>
            {parameter.description && <p className="parameter-text">{parameter.description}</p>}
            <p className="parameter-text muted">
              Default:{' '}
              {parameter.default === null ? (
                'none'
              ) : (
                <code className="parameter-default">{String(parameter.default)}</code>
              )}
            </p>
          </li>
        ))}
      </ul>
    </>
  );
}
