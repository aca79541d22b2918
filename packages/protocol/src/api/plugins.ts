import { type Static, Type } from '@sinclair/typebox';
import { nullable, ref, strictObject, stringEnum } from '../schema/builders.ts';
import { NOT_BLANK } from '../schema/fields.ts';

/**
 * Plugins: Git repositories (or directories inside one) holding skills, commands, agents, hooks and MCP servers
 * in Claude Code's layout. A conversation names them in `plugins` (or gets them from a registered marketplace's
 * `auto_load`); these shapes say what was loaded, from which commit, and what went wrong.
 */

export const PluginSource = strictObject('PluginSource', 'A plugin to load into the conversation.', {
  source: Type.String({ pattern: NOT_BLANK, description: '`<provider>:<owner>/<repo>` or a Git URL.' }),
  ref: Type.Optional(nullable(Type.String({ description: 'Branch, tag or commit.' }))),
  repo_path: Type.Optional(nullable(Type.String({ description: 'Path of the plugin inside the repository.' }))),
});
export type PluginSource = Static<typeof PluginSource>;

export const PluginProblem = strictObject(
  'PluginProblem',
  'Something wrong with a plugin or a marketplace: never silent.',
  {
    severity: stringEnum(['error', 'warning'], {
      description: '`error`: that part (or the whole plugin) was not loaded; `warning`: loaded anyway.',
    }),
    path: nullable(
      Type.String({ description: 'The file or directory concerned, relative to the plugin (or marketplace).' }),
    ),
    message: Type.String(),
  },
);
export type PluginProblem = Static<typeof PluginProblem>;

export const ResolvedPlugin = strictObject(
  'ResolvedPlugin',
  'A plugin of a conversation, pinned to the commit it was loaded from.',
  {
    source: Type.String({ description: 'The source as given (credentials in a URL are redacted).' }),
    original_ref: nullable(Type.String({ description: 'The ref as given; null: the default branch.' })),
    resolved_ref: nullable(
      Type.String({ description: 'The commit SHA loaded (and loaded again after a restart); null: not fetched.' }),
    ),
    repo_path: nullable(Type.String({ description: 'The plugin directory inside the repository.' })),
    marketplace: nullable(
      Type.String({ description: 'The registered marketplace that auto-loaded it; null: named in `plugins`.' }),
    ),
    name: nullable(
      Type.String({
        description:
          'The plugin name (manifest, else marketplace entry, else directory or repository), kept when it could ' +
          'not be loaded; null: the record is about no one plugin (a marketplace that could not be read).',
      }),
    ),
    problems: Type.Array(ref(PluginProblem)),
  },
);
export type ResolvedPlugin = Static<typeof ResolvedPlugin>;

export const PluginComponent = strictObject('PluginComponent', 'A skill, command or agent of a plugin.', {
  name: Type.String({ description: 'Skills by name; commands as `/plugin:command`; agents by name.' }),
  description: nullable(Type.String()),
  path: Type.String({ description: 'Relative to the plugin directory.' }),
});
export type PluginComponent = Static<typeof PluginComponent>;

export const PluginHookSummary = strictObject('PluginHookSummary', 'One command hook of a plugin.', {
  event: Type.String({ description: 'Claude Code event name (`PreToolUse`, ...).' }),
  matcher: Type.String(),
  if: nullable(Type.String({ description: 'Its `if` rule: it runs only for the tool calls this selects.' })),
  command: Type.String({ description: 'With `${CLAUDE_PLUGIN_ROOT}` substituted.' }),
});
export type PluginHookSummary = Static<typeof PluginHookSummary>;

export const PluginInspection = strictObject(
  'PluginInspection',
  'What a plugin contains and what is wrong with it (`bosun plugin inspect --json`).',
  {
    source: Type.String({ description: 'Credentials in a URL are redacted.' }),
    original_ref: nullable(Type.String()),
    resolved_ref: nullable(Type.String({ description: 'The commit inspected; null: the fetch failed.' })),
    repo_path: nullable(Type.String()),
    name: nullable(Type.String()),
    version: nullable(Type.String()),
    description: nullable(Type.String()),
    manifest: nullable(Type.String({ description: 'The `plugin.json` read, relative to the plugin; null: none.' })),
    skills: Type.Array(ref(PluginComponent)),
    commands: Type.Array(ref(PluginComponent)),
    agents: Type.Array(ref(PluginComponent)),
    hooks: Type.Array(ref(PluginHookSummary)),
    mcp_servers: Type.Array(Type.String(), { description: 'Names of the MCP servers of `.mcp.json`.' }),
    problems: Type.Array(ref(PluginProblem)),
  },
);
export type PluginInspection = Static<typeof PluginInspection>;
