import type { PluginProblem, ResolvedPlugin } from '@bosun/protocol';
import { formatProblem } from './problems.ts';

/** How a plugin is named in messages: `name (source@ref:path)`, its marketplace when it is about no one plugin. */
export function pluginLabel(plugin: ResolvedPlugin): string {
  const where = `${plugin.source}${plugin.original_ref ? `@${plugin.original_ref}` : ''}${plugin.repo_path ? `:${plugin.repo_path}` : ''}`;
  const name = plugin.name ?? (plugin.marketplace ? `marketplace ${plugin.marketplace}` : 'plugin');
  return `${name} (${where})`;
}

/**
 * The problems of plugin records, one line each naming the plugin (`name (source): severity: message`); the same
 * problem of the same plugin once, however many times it was recorded. `keep` selects the problems (default all).
 */
export function pluginProblemLines(
  plugins: readonly ResolvedPlugin[],
  keep: (problem: PluginProblem) => boolean = () => true,
): string[] {
  const lines = plugins.flatMap((plugin) =>
    plugin.problems.filter(keep).map((problem) => `${pluginLabel(plugin)}: ${formatProblem(problem)}`),
  );
  return [...new Set(lines)];
}
