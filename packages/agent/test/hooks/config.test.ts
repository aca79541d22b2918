import { DEFAULT_HOOK_TIMEOUT_SECONDS, HookConfigError, hooksFor, normalizeHookConfig } from '@bosun/agent';
import { type HookConfig, ProtocolValidationError, StartConversationRequest, parse } from '@bosun/protocol';
import { hookConfigProblems, mergeHookConfigs } from '@bosun/sources';
import { describe, expect, it } from 'vitest';

/** A start request's `hook_config` as the server sees it: validated, defaults applied. */
function parsed(hookConfig: unknown): HookConfig {
  const request = parse(StartConversationRequest, { workspace: { working_dir: '/w' }, hook_config: hookConfig });
  return request.hook_config as HookConfig;
}

/** The normalized settings without the compiled matchers (for `toEqual`). */
function plain(config: HookConfig) {
  const settings = normalizeHookConfig(config);
  return Object.fromEntries(
    Object.entries(settings).map(([event, groups]) => [
      event,
      groups.map(({ matcher, hooks }) => ({ matcher, hooks })),
    ]),
  );
}

const command = (text: string, extra: Record<string, unknown> = {}) => ({
  type: 'command',
  command: text,
  timeoutSeconds: DEFAULT_HOOK_TIMEOUT_SECONDS,
  name: null,
  ...extra,
});

describe('hook configuration', () => {
  it("normalizes Claude Code's shape", () => {
    const config = parsed({
      PreToolUse: [{ matcher: 'terminal|file_editor', hooks: [{ type: 'command', command: 'a.sh', timeout: 30 }] }],
      Stop: [{ hooks: [{ type: 'command', command: 'stop.sh', statusMessage: 'Checking' }] }],
    });
    expect(plain(config)).toEqual({
      PreToolUse: [{ matcher: 'terminal|file_editor', hooks: [command('a.sh', { timeoutSeconds: 30 })] }],
      PostToolUse: [],
      UserPromptSubmit: [],
      SessionStart: [],
      SessionEnd: [],
      Stop: [{ matcher: '*', hooks: [command('stop.sh', { name: 'Checking' })] }],
    });
  });

  it("normalizes OpenHands' snake_case shape to the same form", () => {
    const config = parsed({
      pre_tool_use: [{ matcher: 'terminal|file_editor', hooks: [{ command: 'a.sh', timeout: 30 }] }],
      post_tool_use: [{ hooks: [{ command: 'post.sh', name: 'audit' }] }],
      user_prompt_submit: [{ hooks: [{ command: 'prompt.sh' }] }],
      session_start: [{ hooks: [{ command: 'start.sh' }] }],
      session_end: [{ hooks: [{ command: 'end.sh' }] }],
      stop: [{ hooks: [{ command: 'stop.sh' }] }],
    });
    expect(plain(config)).toEqual({
      PreToolUse: [{ matcher: 'terminal|file_editor', hooks: [command('a.sh', { timeoutSeconds: 30 })] }],
      PostToolUse: [{ matcher: '*', hooks: [command('post.sh', { name: 'audit' })] }],
      UserPromptSubmit: [{ matcher: '*', hooks: [command('prompt.sh')] }],
      SessionStart: [{ matcher: '*', hooks: [command('start.sh')] }],
      SessionEnd: [{ matcher: '*', hooks: [command('end.sh')] }],
      Stop: [{ matcher: '*', hooks: [command('stop.sh')] }],
    });
  });

  it('merges both spellings and the nested `hooks` map in the order given; matchers only apply to tool events', () => {
    const settings = normalizeHookConfig(
      parsed({
        PreToolUse: [{ matcher: 'terminal', hooks: [{ command: 'one' }] }],
        hooks: { PreToolUse: [{ hooks: [{ command: 'three' }] }] },
        pre_tool_use: [{ matcher: '^file_', hooks: [{ command: 'two' }] }],
        Stop: [{ matcher: 'terminal', hooks: [{ command: 'stop' }] }],
      }),
    );
    expect(settings.PreToolUse.map((group) => group.matcher)).toEqual(['terminal', '*', '^file_']);
    expect(hooksFor(settings, 'PreToolUse', 'terminal').map((hook) => hook.command)).toEqual(['one', 'three']);
    expect(hooksFor(settings, 'PreToolUse', 'file_editor').map((hook) => hook.command)).toEqual(['three', 'two']);
    // A matcher on an event without tools is ignored (as in Claude Code).
    expect(settings.Stop[0]?.matcher).toBe('*');
    expect(hooksFor(settings, 'Stop').map((hook) => hook.command)).toEqual(['stop']);
  });

  it('no configuration: every event without hooks', () => {
    for (const config of [null, undefined, {}]) {
      expect(Object.values(normalizeHookConfig(config as HookConfig | null)).flat()).toEqual([]);
    }
  });

  it('rejects unknown events and hook types at the schema (422 with the location)', () => {
    const problems = (value: unknown) => {
      try {
        parsed(value);
        return [];
      } catch (error) {
        expect(error).toBeInstanceOf(ProtocolValidationError);
        return (error as ProtocolValidationError).errors.map((e) => [e.loc.join('.'), e.type]);
      }
    };
    expect(problems({ PreToolUse: [], BeforeEverything: [] })).toEqual([
      ['hook_config.BeforeEverything', 'extra_forbidden'],
    ]);
    expect(problems({ hooks: { notification: [] } })).toEqual([['hook_config.hooks.notification', 'extra_forbidden']]);
    expect(problems({ Stop: [{ hooks: [{ type: 'prompt', command: 'x' }] }] })).toEqual([
      ['hook_config.Stop.0.hooks.0.type', 'enum'],
    ]);
    expect(problems({ Stop: [{ hooks: [{ command: 'x', timeout: 0 }] }] })).toEqual([
      ['hook_config.Stop.0.hooks.0.timeout', 'greater_than'],
    ]);
  });

  it('refuses what hookConfigProblems reports: unknown events, invalid regular expressions', () => {
    const config = {
      PreToolUse: [{ matcher: 'file_(', hooks: [] }],
      Notification: [],
    } as unknown as HookConfig;
    expect(() => normalizeHookConfig(config)).toThrow(HookConfigError);
    expect(() => normalizeHookConfig(config)).toThrow(/hook_config\.PreToolUse\.0\.matcher: Invalid matcher/);
  });

  it("normalizes the merge of a conversation's hooks and its plugins', in that order", () => {
    const own = { pre_tool_use: [{ matcher: '*', hooks: [{ type: 'command' as const, command: 'own' }] }] };
    const plugin = {
      hooks: { PreToolUse: [{ matcher: 'terminal', hooks: [{ type: 'command' as const, command: 'plugin' }] }] },
    };
    const stop = { Stop: [{ matcher: '*', hooks: [{ type: 'command' as const, command: 'stop' }] }] };
    const settings = normalizeHookConfig(mergeHookConfigs([own, null, plugin, stop]));
    expect(settings.PreToolUse.map((g) => g.hooks[0]?.command)).toEqual(['own', 'plugin']);
    expect(settings.Stop.map((g) => g.hooks[0]?.command)).toEqual(['stop']);
  });
});

describe('`if` on a hook', () => {
  it('is kept for tool events; a rule that cannot be read, or an `if` on another event, is a 422', () => {
    const config = parsed({ PreToolUse: [{ matcher: 'Bash', hooks: [{ command: 'x', if: 'Bash(git commit:*)' }] }] });
    const hook = normalizeHookConfig(config).PreToolUse[0]?.hooks[0];
    expect(hook?.if?.rule).toBe('Bash(git commit:*)');
    expect(hook?.if?.matches('terminal', { command: 'git commit -m x' }, '/w')).toBe(true);
    expect(hook?.if?.matches('terminal', { command: 'ls' }, '/w')).toBe(false);
    const problems = hookConfigProblems(
      parsed({
        PreToolUse: [{ hooks: [{ command: 'x', if: 'Bash(git commit' }] }],
        Stop: [{ hooks: [{ command: 'x', if: 'Bash' }] }],
      }),
      ['body', 'hook_config'],
    );
    expect(problems.map((p) => [p.loc.join('.'), p.type])).toEqual([
      ['body.hook_config.PreToolUse.0.hooks.0.if', 'value_error'],
      ['body.hook_config.Stop.0.hooks.0.if', 'value_error'],
    ]);
    expect(problems[1]?.msg).toBe('`if` applies to tool events only (PreToolUse, PostToolUse)');
  });
});
