import { type Static, Type } from '@sinclair/typebox';
import { nullable, ref, strictObject, stringEnum, withDefault } from '../schema/builders.ts';

/**
 * Hooks (`hook_config` of a conversation): shell commands run at points of the agent's life. The map takes
 * Claude Code's event names (`PreToolUse`) and OpenHands' (`pre_tool_use`), and may be nested in `hooks` as in
 * Claude Code settings files and plugin `hooks.json`; the agent merges them into one list per event.
 */

/** Each event under both of its names: Claude Code's (PascalCase), then OpenHands' (snake_case). */
export const HOOK_EVENT_KEYS = {
  PreToolUse: 'pre_tool_use',
  PostToolUse: 'post_tool_use',
  UserPromptSubmit: 'user_prompt_submit',
  SessionStart: 'session_start',
  SessionEnd: 'session_end',
  Stop: 'stop',
} as const;
export type HookEventName = keyof typeof HOOK_EVENT_KEYS;

export const HookDefinition = strictObject('HookDefinition', 'One hook: a shell command.', {
  type: withDefault(stringEnum(['command'], { description: 'Only command hooks are supported.' }), 'command'),
  command: Type.String({
    minLength: 1,
    description:
      'Run with `bash -c` in the workspace; gets the event as JSON on stdin. Exit code 2 blocks (stderr is ' +
      'the reason); so does JSON on stdout with `decision: "block"` or `"deny"`, ' +
      '`hookSpecificOutput.permissionDecision: "deny"` or `continue: false`.',
  }),
  timeout: Type.Optional(
    nullable(
      Type.Number({
        exclusiveMinimum: 0,
        maximum: 86_400,
        description: 'Seconds before the command is killed (a timeout never blocks); default 60.',
      }),
    ),
  ),
  name: Type.Optional(nullable(Type.String({ description: 'A label for the server log.' }))),
  if: Type.Optional(
    nullable(
      Type.String({
        minLength: 1,
        description:
          'Tool events only (Claude Code): a permission rule, `Tool` or `Tool(specifier)`; the hook runs only ' +
          'for the calls it selects. `Bash(git commit:*)`, `Bash(npm run *)`, `Edit(src/**)`, `Write(//etc/**)`; ' +
          "tools by their Claude Code name (`Bash` = `terminal`, ...) or Bosun's.",
      }),
    ),
  ),
  statusMessage: Type.Optional(
    nullable(Type.String({ description: 'Accepted for Claude Code compatibility; only logged.' })),
  ),
});
export type HookDefinition = Static<typeof HookDefinition>;

export const HookMatcher = strictObject('HookMatcher', 'Hooks that run, in order, for the tools `matcher` selects.', {
  matcher: withDefault(
    Type.String({
      description:
        'Tool events only: which tools. `*` or empty: all; letters, digits, `_`, `-` separated by `|` or `,`: ' +
        'exact tool names (`terminal|file_editor`); anything else: a regular expression searched in the tool ' +
        'name (`/.../` delimiters allowed).',
    }),
    '*',
  ),
  hooks: Type.Array(ref(HookDefinition)),
});
export type HookMatcher = Static<typeof HookMatcher>;

const matchers = (event: string) =>
  Type.Optional(Type.Array(ref(HookMatcher), { description: `Hooks of the ${event} event.` }));

const eventProperties = {
  PreToolUse: matchers('PreToolUse'),
  PostToolUse: matchers('PostToolUse'),
  UserPromptSubmit: matchers('UserPromptSubmit'),
  SessionStart: matchers('SessionStart'),
  SessionEnd: matchers('SessionEnd'),
  Stop: matchers('Stop'),
  pre_tool_use: matchers('PreToolUse'),
  post_tool_use: matchers('PostToolUse'),
  user_prompt_submit: matchers('UserPromptSubmit'),
  session_start: matchers('SessionStart'),
  session_end: matchers('SessionEnd'),
  stop: matchers('Stop'),
};

export const HookEvents = strictObject(
  'HookEvents',
  'Hooks by event, under Claude Code names (`PreToolUse`) or OpenHands names (`pre_tool_use`).',
  eventProperties,
);
export type HookEvents = Static<typeof HookEvents>;

export const HookConfig = strictObject(
  'HookConfig',
  'Hooks by event: `PreToolUse`, `PostToolUse`, `UserPromptSubmit`, `SessionStart`, `SessionEnd`, `Stop` ' +
    '(or `pre_tool_use`, ...). Unknown events are rejected.',
  {
    ...eventProperties,
    hooks: Type.Optional(
      ref(HookEvents, { description: 'The same map nested, as in Claude Code settings and plugin `hooks.json`.' }),
    ),
  },
);
export type HookConfig = Static<typeof HookConfig>;
