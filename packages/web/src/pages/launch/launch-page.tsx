import { type LaunchProblem, decodeLaunchLink, formatLaunchProblem } from '@bosun/protocol';
import type { DirectoryPlugin, DirectoryPluginConfig } from '@bosun/protocol';
import { useQueries } from '@tanstack/react-query';
import { useMemo } from 'react';
import { Link, useLocation } from 'react-router';
import { useApi } from '../../api/client.tsx';
import { Loading, Notice } from '../../ui/feedback.tsx';
import { PluginReview } from '../plugin-start/plugin-review.tsx';
import { pluginKeys, useDirectory } from '../plugin-start/queries.ts';
import { type ReviewPlugin, displayName } from '../plugin-start/start-plugins.ts';
import './launch.css';

const EXAMPLE_JSON =
  '[{"source":"github:acme/plugins","ref":"main","repo_path":"plugins/weather","parameters":{"city":"Zürich"}}]';

interface Launch {
  plugins: ReviewPlugin[];
  message: string | null;
  /** Problems of the whole link (nothing could be read). */
  linkProblems: string[];
  messageProblems: string[];
  /** How many plugins the link names whose reference has problems. */
  broken: number;
}

/**
 * `/launch?plugins=<base64 of a JSON array of plugin references>&message=...`: read with the very function the
 * command line and the API use, every problem shown next to the plugin it concerns, then the review step.
 */
export default function LaunchPage() {
  const { search } = useLocation();
  const read = useMemo(() => {
    try {
      return readLaunch(search);
    } catch (error) {
      // Never a blank page: whatever went wrong reading it is said, with what a good link looks like.
      const problem = `it could not be read (${error instanceof Error ? error.message : String(error)})`;
      return { plugins: [], message: null, linkProblems: [problem], messageProblems: [], broken: 0 } as Launch;
    }
  }, [search]);
  // A plugin of the directory (same source and path) brings its name, description and declared parameters.
  const directory = useDirectory();
  const launch = useMemo(() => withDirectory(read, directory.data?.plugins ?? []), [read, directory.data]);
  const { configs, settled } = useDirectoryConfigs(launch.plugins);
  // The review's fields start from what the directory declares: it waits for the directory (or its failure).
  const ready = !directory.isPending && settled;
  const plugins = useMemo(
    () =>
      launch.plugins.map((plugin) => {
        const config = plugin.directoryId ? configs[plugin.directoryId] : undefined;
        return config ? { ...plugin, schema: config.parameters } : plugin;
      }),
    [launch.plugins, configs],
  );
  const count = launch.plugins.length;
  const title =
    count === 1 && launch.plugins[0]
      ? `Launch ${launch.plugins[0].name}`
      : count > 1
        ? `Launch ${count} plugins`
        : 'Launch';

  return (
    <main className="page page-narrow launch-page">
      <h1>{title}</h1>
      {launch.linkProblems.length > 0 ? (
        <BadLink problems={launch.linkProblems} />
      ) : (
        <>
          <p className="muted">
            Someone shared a link that starts a conversation with {count === 1 ? 'a plugin' : `${count} plugins`}.
            Nothing runs until you review {count === 1 ? 'it' : 'them'} and press Start Conversation.
          </p>
          {launch.broken > 0 && (
            <Notice
              tone="error"
              title={`${launch.broken} of ${count} ${count === 1 ? 'plugin' : 'plugins'} in this link cannot be loaded.`}
            >
              Each one says why below. Ask whoever shared the link for a corrected one; the conversation cannot start
              with part of it.
            </Notice>
          )}
          {launch.messageProblems.length > 0 && (
            <Notice tone="warning" title="The link’s starting message has a problem:">
              {launch.messageProblems.join('; ')}. Edit it below.
            </Notice>
          )}
          {!ready && <Loading what="the plugins" />}
          {ready && (
            <PluginReview
              plugins={plugins}
              initialMessage={launch.message}
              blocked={
                launch.broken > 0
                  ? 'This link has plugins that cannot be loaded (see above): ask for a corrected link.'
                  : undefined
              }
            />
          )}
        </>
      )}
    </main>
  );
}

function BadLink({ problems }: { problems: string[] }) {
  return (
    <div className="stack">
      <Notice tone="error" title="This launch link cannot be read.">
        <ul className="launch-problem-list">
          {problems.map((problem) => (
            <li key={problem}>{problem}</li>
          ))}
        </ul>
      </Notice>
      <section className="card launch-help" aria-labelledby="launch-help-heading">
        <h2 id="launch-help-heading">What a launch link looks like</h2>
        <p>
          <code>/launch?plugins=…&amp;message=…</code> where <code>plugins</code> is the base64 of a JSON array of
          plugin references, each <code>{'{source, ref?, repo_path?, parameters?}'}</code>, for example:
        </p>
        <pre className="launch-example">
          <code>{EXAMPLE_JSON}</code>
        </pre>
        <p>
          <code>message</code> (optional) is the first message, such as <code>/weather:now</code>. The link may have
          been cut when it was copied: ask whoever shared it to send it again, or make one with the Copy launch link
          button of a plugin in the <Link to="/plugins">Plugin Directory</Link> (or <code>bosun launch link</code>).
        </p>
      </section>
    </div>
  );
}

/** The launch's plugins with the name and description of the same plugin in the directory, if it lists it. */
function withDirectory(launch: Launch, directory: readonly DirectoryPlugin[]): Launch {
  if (directory.length === 0) return launch;
  const plugins = launch.plugins.map((plugin) => {
    const spec = plugin.spec;
    const match =
      spec &&
      directory.find(
        (entry) => entry.source.source === spec.source && (entry.source.repo_path ?? '') === (spec.repo_path ?? ''),
      );
    return match ? { ...plugin, name: match.name, description: match.description, directoryId: match.id } : plugin;
  });
  return { ...launch, plugins };
}

/** The launch configurations (declared parameters) of the directory's plugins among them. */
function useDirectoryConfigs(plugins: readonly ReviewPlugin[]): {
  configs: Record<string, DirectoryPluginConfig>;
  settled: boolean;
} {
  const api = useApi();
  const ids = [...new Set(plugins.flatMap((plugin) => (plugin.directoryId ? [plugin.directoryId] : [])))];
  const results = useQueries({
    queries: ids.map((id) => ({
      queryKey: pluginKeys.config(id),
      queryFn: () => api.get('/api/v1/plugin-directory/plugins/{plugin_id}/config', { params: { plugin_id: id } }),
      retry: false,
      staleTime: 60_000,
    })),
  });
  const configs: Record<string, DirectoryPluginConfig> = {};
  ids.forEach((id, index) => {
    const data = results[index]?.data;
    if (data) configs[id] = data;
  });
  return { configs, settled: results.every((result) => !result.isPending) };
}

/** Reads the link; each problem goes to the plugin it concerns (`plugins[2].ref`), else to the whole link. */
function readLaunch(search: string): Launch {
  const query = new URLSearchParams(search);
  if (!query.has('plugins') && !query.has('plugin_source')) {
    return {
      plugins: [],
      message: query.get('message'),
      linkProblems: ['The address has no plugins parameter: it is not a whole launch link.'],
      messageProblems: [],
      broken: 0,
    };
  }
  const decoded = decodeLaunchLink(`?${search.replace(/^\?/, '')}`);
  const byPlugin = new Map<number, string[]>();
  const linkProblems: string[] = [];
  const messageProblems: string[] = [];
  for (const problem of decoded.problems) {
    const [first, index] = problem.loc;
    if (first === 'plugins' && typeof index === 'number') {
      byPlugin.set(index, [...(byPlugin.get(index) ?? []), pluginProblem(problem)]);
    } else if (first === 'message') messageProblems.push(problem.msg);
    else linkProblems.push(formatLaunchProblem(problem));
  }
  if (linkProblems.length > 0)
    return { plugins: [], message: decoded.message, linkProblems, messageProblems, broken: 0 };

  // The references as the link has them (for the name and source of those with problems only: the checked ones
  // come from decodeLaunchLink).
  const raw = rawItems(query.get('plugins'));
  const total = Math.max(raw?.length ?? 0, decoded.plugins.length + byPlugin.size);
  const plugins: ReviewPlugin[] = [];
  let next = 0;
  for (let index = 0; index < total; index += 1) {
    const problems = byPlugin.get(index);
    if (problems) {
      const item = raw?.[index] as { source?: unknown; repo_path?: unknown } | undefined;
      const source = typeof item?.source === 'string' ? item.source : null;
      const path = typeof item?.repo_path === 'string' ? item.repo_path : null;
      plugins.push({
        key: String(index),
        name: source ? `Plugin ${index + 1} (${displayName(source, path)})` : `Plugin ${index + 1}`,
        spec: null,
        rawSource: source,
        problems,
      });
    } else {
      const spec = decoded.plugins[next++];
      if (!spec) continue;
      plugins.push({ key: String(index), name: displayName(spec.source, spec.repo_path), spec, problems: [] });
    }
  }
  return {
    plugins,
    message: decoded.message,
    linkProblems,
    messageProblems,
    broken: plugins.filter((plugin) => !plugin.spec).length,
  };
}

/** `plugins[2].ref: must not …` → `ref: must not …` (the plugin is already named). */
function pluginProblem(problem: LaunchProblem): string {
  const rest = problem.loc.slice(2);
  if (rest.length === 0) return problem.msg;
  return formatLaunchProblem({ loc: rest, msg: problem.msg });
}

/** The array a `plugins` value holds, read leniently, or null. */
function rawItems(value: string | null): unknown[] | null {
  if (!value) return null;
  try {
    let text = value.trim().replace(/ /g, '+').replace(/-/g, '+').replace(/_/g, '/').replace(/=+$/, '');
    text += '='.repeat((4 - (text.length % 4)) % 4);
    const binary = atob(text);
    const bytes = Uint8Array.from(binary, (char) => char.charCodeAt(0));
    const parsed: unknown = JSON.parse(new TextDecoder().decode(bytes));
    return Array.isArray(parsed) ? parsed : null;
  } catch {
    return null;
  }
}
