import type { HookConfig, HookEventName, ValidationError } from '@bosun/protocol';
import { HOOK_EVENTS, TOOL_EVENTS, hookConfigEntries, hookConfigProblems, hookEventOf } from '@bosun/sources';
import { type ToolCondition, compileCondition } from './condition.ts';
import { type ToolMatcher, compileMatcher } from './matcher.ts';

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
  for (const entry of hookConfigEntries(config as Record<string, unknown>, [])) {
    const event = hookEventOf(entry.key) as HookEventName;
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
