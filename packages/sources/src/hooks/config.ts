import { HOOK_EVENT_KEYS, type HookConfig, type HookEventName, type ValidationError } from '@bosun/protocol';
import { conditionProblem } from './condition.ts';
import { matcherProblem } from './matcher.ts';

/** The hook events, in the order of Claude Code's documentation. */
export const HOOK_EVENTS = Object.keys(HOOK_EVENT_KEYS) as HookEventName[];
/** Events whose hooks are selected by tool name (the others ignore `matcher`). */
export const TOOL_EVENTS: ReadonlySet<HookEventName> = new Set(['PreToolUse', 'PostToolUse']);

const EVENT_BY_KEY = new Map<string, HookEventName>(
  HOOK_EVENTS.flatMap((event) => [
    [event, event],
    [HOOK_EVENT_KEYS[event], event],
  ]),
);

/** The event a key of a hook configuration names: Claude Code's (`PreToolUse`) or OpenHands' (`pre_tool_use`). */
export function hookEventOf(key: string): HookEventName | undefined {
  return EVENT_BY_KEY.get(key);
}

/** One event entry of a hook configuration, with where it is. */
export interface HookConfigEntry {
  key: string;
  loc: (string | number)[];
  value: unknown;
}

/** The config's event entries: its own keys, then those nested in `hooks`. */
export function hookConfigEntries(config: Record<string, unknown>, loc: (string | number)[]): HookConfigEntry[] {
  const out: HookConfigEntry[] = [];
  for (const [key, value] of Object.entries(config)) {
    if (key === 'hooks' && value && typeof value === 'object' && !Array.isArray(value)) {
      for (const [inner, innerValue] of Object.entries(value)) {
        out.push({ key: inner, loc: [...loc, 'hooks', inner], value: innerValue });
      }
    } else out.push({ key, loc: [...loc, key], value });
  }
  return out;
}

const IF_ON_TOOL_EVENTS_ONLY = '`if` applies to tool events only (PreToolUse, PostToolUse)';

/**
 * What is wrong with a hook configuration that its schema cannot say: unknown event names (for callers that did
 * not validate it), matchers that are not valid regular expressions and `if` rules that cannot be read (or are
 * on an event without tools). `loc` prefixes each problem's location.
 */
export function hookConfigProblems(
  config: HookConfig | null | undefined,
  loc: (string | number)[] = ['hook_config'],
): ValidationError[] {
  if (!config) return [];
  const problems: ValidationError[] = [];
  for (const entry of hookConfigEntries(config as Record<string, unknown>, loc)) {
    const event = EVENT_BY_KEY.get(entry.key);
    if (!event) {
      problems.push({
        loc: entry.loc,
        msg: `Unknown hook event '${entry.key}'; known events: ${[...EVENT_BY_KEY.keys()].join(', ')}`,
        type: 'extra_forbidden',
      });
      continue;
    }
    if (!Array.isArray(entry.value)) continue;
    entry.value.forEach((group: { matcher?: string | null; hooks?: unknown }, index) => {
      const problem = TOOL_EVENTS.has(event) ? matcherProblem(group?.matcher) : undefined;
      if (problem) problems.push({ loc: [...entry.loc, index, 'matcher'], msg: problem, type: 'value_error' });
      const hooks = Array.isArray(group?.hooks) ? (group.hooks as { if?: unknown }[]) : [];
      hooks.forEach((hook, at) => {
        if (hook?.if === undefined || hook.if === null) return;
        const msg = TOOL_EVENTS.has(event) ? conditionProblem(hook.if) : IF_ON_TOOL_EVENTS_ONLY;
        if (msg) problems.push({ loc: [...entry.loc, index, 'hooks', at, 'if'], msg, type: 'value_error' });
      });
    });
  }
  return problems;
}
