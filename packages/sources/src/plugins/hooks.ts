import { HOOK_EVENT_KEYS, HookConfig, type HookEventName, type PluginProblem, safeParse } from '@bosun/protocol';
import { conditionProblem } from '../hooks/condition.ts';
import { HOOK_EVENTS, TOOL_EVENTS, hookConfigProblems } from '../hooks/config.ts';
import { readComponentJson } from './component-json.ts';
import type { ComponentSpec } from './manifest.ts';
import type { PluginReading } from './paths.ts';
import { error, warning } from './problems.ts';

const EVENT_BY_KEY = new Map<string, HookEventName>(
  HOOK_EVENTS.flatMap((event) => [
    [event, event],
    [HOOK_EVENT_KEYS[event], event],
  ]),
);
const HOOK_FIELDS = new Set(['type', 'command', 'timeout', 'name', 'statusMessage', 'if']);

/** `${CLAUDE_PLUGIN_ROOT}` in a command becomes the plugin's directory; the variable is also exported to it. */
export function withPluginRoot(command: string, root: string): string {
  const substituted = command.replaceAll('${CLAUDE_PLUGIN_ROOT}', root);
  return `export CLAUDE_PLUGIN_ROOT=${shellQuote(root)}; ${substituted}`;
}

function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

/**
 * The hooks of a plugin: `hooks/hooks.json` and the manifest's `hooks` (files or inline), in that order, merged
 * into one configuration with Claude Code event names. What Bosun cannot run (other events, hook types other
 * than `command`) is left out with a warning; a file that is still invalid is left out with an error.
 */
export async function readPluginHooks(
  plugin: PluginReading,
  specs: ComponentSpec[] | null,
): Promise<HookConfig | null> {
  const configs: HookConfig[] = [];
  await readComponentJson(plugin, 'hooks/hooks.json', specs, { file: 'hooks', content: 'hooks' }, (json, path) => {
    const config = hookConfigOf(json, plugin.root, path, plugin.problems);
    if (config) configs.push(config);
  });
  return configs.length ? mergeHookConfigs(configs) : null;
}

/** A hooks file (`{"hooks": {...}}` or the event map itself) made into a valid HookConfig, or null. */
function hookConfigOf(json: unknown, root: string, path: string | null, problems: PluginProblem[]): HookConfig | null {
  if (!isObject(json)) {
    problems.push(error(path, 'hooks must be a JSON object; not loaded'));
    return null;
  }
  const events = isObject(json.hooks) ? json.hooks : json;
  const config: Record<string, unknown[]> = {};
  for (const [key, groups] of Object.entries(events)) {
    if (key === 'description' || (key === 'hooks' && events === json)) continue;
    const event = EVENT_BY_KEY.get(key);
    if (!event) {
      problems.push(warning(path, `hook event '${key}' is not supported by Bosun; its hooks are ignored`));
      continue;
    }
    if (!Array.isArray(groups)) {
      problems.push(error(path, `hooks of '${key}' must be a list; ignored`));
      continue;
    }
    for (const group of groups) {
      const kept = keptGroup(group, key, root, path, problems);
      if (kept) config[event] = [...(config[event] ?? []), kept];
    }
  }
  const parsed = safeParse(HookConfig, config);
  const invalid = parsed.ok ? hookConfigProblems(parsed.value, []) : parsed.errors;
  if (invalid.length) {
    for (const p of invalid) problems.push(error(path, `${p.loc.join('.')}: ${p.msg}; these hooks are not loaded`));
    return null;
  }
  return config as HookConfig;
}

function keptGroup(
  group: unknown,
  key: string,
  root: string,
  path: string | null,
  problems: PluginProblem[],
): Record<string, unknown> | null {
  if (!isObject(group) || !Array.isArray(group.hooks)) {
    problems.push(error(path, `a group of '${key}' must be {"matcher", "hooks": [...]}; ignored`));
    return null;
  }
  const hooks: Record<string, unknown>[] = [];
  for (const hook of group.hooks) {
    if (!isObject(hook)) continue;
    const type = hook.type ?? 'command';
    if (type !== 'command' || typeof hook.command !== 'string') {
      problems.push(warning(path, `a '${String(type)}' hook of '${key}' is not supported by Bosun; ignored`));
      continue;
    }
    const extra = Object.keys(hook).filter((field) => !HOOK_FIELDS.has(field));
    if (extra.length) problems.push(warning(path, `hook fields ${extra.join(', ')} of '${key}' are ignored`));
    if (hook.if != null && !conditionHolds(hook.if, key, path, problems)) continue;
    const kept: Record<string, unknown> = { type: 'command', command: withPluginRoot(hook.command, root) };
    for (const field of ['timeout', 'name', 'statusMessage', 'if']) if (hook[field] != null) kept[field] = hook[field];
    hooks.push(kept);
  }
  if (!hooks.length) return null;
  return { ...(group.matcher != null ? { matcher: group.matcher } : {}), hooks };
}

/** Whether a hook's `if` can be kept; else says why the hook is left out (it would never run in Claude Code). */
function conditionHolds(rule: unknown, key: string, path: string | null, problems: PluginProblem[]): boolean {
  if (!TOOL_EVENTS.has(EVENT_BY_KEY.get(key) as HookEventName)) {
    problems.push(warning(path, `a hook of '${key}' has an \`if\`, which applies to tool events only; it never runs`));
    return false;
  }
  const problem = conditionProblem(rule);
  if (problem) problems.push(error(path, `${problem}; this hook of '${key}' is not loaded`));
  return !problem;
}

/**
 * One configuration holding the hooks of `configs` in order: for each event, the groups of the first config,
 * then the second's, ... (so a conversation's own `hook_config` goes first, plugins after it). Every spelling
 * (`PreToolUse`, `pre_tool_use`, nested `hooks`) is read; the result uses Claude Code's names.
 */
export function mergeHookConfigs(configs: readonly (HookConfig | null | undefined)[]): HookConfig {
  const merged: Record<string, unknown[]> = {};
  for (const config of configs) {
    if (!config) continue;
    const entries = Object.entries(config).flatMap(([key, value]) =>
      key === 'hooks' && isObject(value) ? Object.entries(value) : [[key, value] as const],
    );
    for (const [key, groups] of entries) {
      const event = EVENT_BY_KEY.get(key);
      if (event && Array.isArray(groups)) merged[event] = [...(merged[event] ?? []), ...groups];
    }
  }
  return merged as HookConfig;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return !!value && typeof value === 'object' && !Array.isArray(value);
}
