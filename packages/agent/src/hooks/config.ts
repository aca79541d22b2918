import { HOOK_EVENT_KEYS, type HookConfig, type HookEventName, type ValidationError } from '@bosun/protocol';
import { type ToolCondition, compileCondition, conditionProblem } from './condition.ts';
import { type ToolMatcher, compileMatcher, matcherProblem } from './matcher.ts';

/** The hook events, in the order of Claude Code's documentation. */
export const HOOK_EVENTS = Object.keys(HOOK_EVENT_KEYS) as HookEventName[];
/** Events whose hooks are selected by tool name (the others ignore `matcher`). */
export const TOOL_EVENTS: ReadonlySet<HookEventName> = new Set(['PreToolUse', 'PostToolUse']);
/** Seconds a hook may run when its `timeout` is not given (OpenHands' default). */
export const DEFAULT_HOOK_TIMEOUT_SECONDS = 60;

/** One command hook, normalized. */
export interface CommandHook {
  type: 'command';
  command: string;
  timeoutSeconds: number;
  /** `name` (OpenHands) or `statusMessage` (Claude Code), for the log. */
  name: string | null;
  /** Claude Code's `if` (tool events): the hook runs only for the calls this rule selects. */
  if?: { rule: string; matches: ToolCondition };
}

/** Hooks that run, in order, for the tools `matcher` selects (every tool for events without tools). */
export interface HookGroup {
  matcher: string;
  matches: ToolMatcher;
  hooks: CommandHook[];
}

/** The normalized configuration: every event, each with its groups in configuration order. */
export type HookSettings = Record<HookEventName, HookGroup[]>;

export class HookConfigError extends Error {
  constructor(readonly problems: ValidationError[]) {
    super(`invalid hook_config: ${problems.map((p) => `${p.loc.join('.')}: ${p.msg}`).join('; ')}`);
    this.name = 'HookConfigError';
  }
}

const EVENT_BY_KEY = new Map<string, HookEventName>(
  HOOK_EVENTS.flatMap((event) => [
    [event, event],
    [HOOK_EVENT_KEYS[event], event],
  ]),
);

interface Entry {
  key: string;
  loc: (string | number)[];
  value: unknown;
}

/** The config's event entries: its own keys, then those nested in `hooks`. */
function entries(config: Record<string, unknown>, loc: (string | number)[]): Entry[] {
  const out: Entry[] = [];
  for (const [key, value] of Object.entries(config)) {
    if (key === 'hooks' && value && typeof value === 'object' && !Array.isArray(value)) {
      for (const [inner, innerValue] of Object.entries(value)) {
        out.push({ key: inner, loc: [...loc, 'hooks', inner], value: innerValue });
      }
    } else out.push({ key, loc: [...loc, key], value });
  }
  return out;
}

export const IF_ON_TOOL_EVENTS_ONLY = '`if` applies to tool events only (PreToolUse, PostToolUse)';

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
  for (const entry of entries(config as Record<string, unknown>, loc)) {
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

/**
 * One internal form for both spellings: every event gets the groups of its Claude Code key, its OpenHands key
 * and the nested `hooks` map, in the order they appear. Throws `HookConfigError` for what `hookConfigProblems`
 * reports.
 */
export function normalizeHookConfig(config: HookConfig | null | undefined): HookSettings {
  const problems = hookConfigProblems(config);
  if (problems.length) throw new HookConfigError(problems);
  const settings = Object.fromEntries(HOOK_EVENTS.map((event) => [event, [] as HookGroup[]])) as HookSettings;
  if (!config) return settings;
  for (const entry of entries(config as Record<string, unknown>, [])) {
    const event = EVENT_BY_KEY.get(entry.key) as HookEventName;
    const groups = (entry.value ?? []) as NonNullable<HookConfig['PreToolUse']>;
    for (const group of groups) {
      const matcher = TOOL_EVENTS.has(event) ? (group.matcher ?? '*') : '*';
      settings[event].push({
        matcher,
        matches: compileMatcher(matcher),
        hooks: group.hooks.map((hook) => ({
          type: 'command',
          command: hook.command,
          timeoutSeconds: hook.timeout ?? DEFAULT_HOOK_TIMEOUT_SECONDS,
          name: hook.name ?? hook.statusMessage ?? null,
          ...(hook.if ? { if: { rule: hook.if, matches: compileCondition(hook.if) } } : {}),
        })),
      });
    }
  }
  return settings;
}

/**
 * The hooks of `event` that apply to a call of `toolName` with `toolInput` (tool events: its group's matcher and
 * its own `if`; `workspace` anchors relative paths of `if`) or all of them (other events), in order.
 */
export function hooksFor(
  settings: HookSettings,
  event: HookEventName,
  toolName?: string,
  toolInput?: Record<string, unknown>,
  workspace = '/',
): CommandHook[] {
  if (!TOOL_EVENTS.has(event)) return settings[event].flatMap((group) => group.hooks);
  const name = toolName ?? '';
  return settings[event].flatMap((group) =>
    group.matches(name, toolInput)
      ? group.hooks.filter((hook) => !hook.if || hook.if.matches(name, toolInput, workspace))
      : [],
  );
}
