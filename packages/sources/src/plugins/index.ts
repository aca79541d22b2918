export type { PluginAgent, PluginCommand, PluginSkill } from './components.ts';
export {
  type FetchPluginOptions,
  type FetchedPlugin,
  type PluginReference,
  defaultPluginName,
  fetchPlugin,
  pluginInspection,
  pluginReferenceProblems,
  repoPathProblem,
} from './fetch.ts';

export { mergeHookConfigs, readPluginHooks, withPluginRoot } from './hooks.ts';
export { MANIFEST_DIRS, type PluginManifest, parseManifest, readPluginManifest } from './manifest.ts';
export { type McpServerConfigs, mergeMcpServers, readPluginMcpServers } from './mcp.ts';
export { pluginSkills, withPluginSkills } from './skills.ts';
export { type LoadPluginOptions, type LoadedPlugin, hookSummaries, loadPlugin } from './plugin.ts';
export { formatProblem } from './problems.ts';
export { pluginLabel, pluginProblemLines } from './report.ts';
export { gitProvidersFromEnv } from './providers.ts';
