import { type Static, Type } from '@sinclair/typebox';
import { nullable, ref, strictObject, withDefault } from '../schema/builders.ts';
import { describedName } from '../schema/fields.ts';
import { PluginProblem } from './plugins.ts';

/**
 * Marketplaces: Git repositories listing plugins in a `marketplace.json` (Claude Code's format). Registering
 * one makes its plugins available; `auto_load` also loads them into every conversation that registers it.
 */

export const RegisteredMarketplace = strictObject(
  'RegisteredMarketplace',
  'A marketplace of plugins registered for a conversation.',
  {
    name: Type.String({
      minLength: 1,
      maxLength: 64,
      pattern: '^[A-Za-z0-9][A-Za-z0-9._-]*$',
      description: 'The name plugins are referred to by (`plugin@name`); unique among the registrations.',
    }),
    source: Type.String({
      minLength: 1,
      description:
        'The marketplace repository: `<provider>:<owner>/<repo>` (`github`, `gitlab`, `bitbucket`) or a Git URL.',
    }),
    ref: Type.Optional(
      nullable(Type.String({ minLength: 1, description: 'Branch, tag or commit; default: the default branch.' })),
    ),
    repo_path: Type.Optional(
      nullable(Type.String({ minLength: 1, description: 'Directory of the marketplace inside the repository.' })),
    ),
    auto_load: withDefault(
      Type.Union([Type.Boolean(), Type.Array(Type.String({ minLength: 1 }))], {
        description:
          '`true`: every plugin of the marketplace is loaded into the conversation; a list: those plugins; `false`: none (available only).',
      }),
      false,
    ),
  },
);
export type RegisteredMarketplace = Static<typeof RegisteredMarketplace>;

export const MarketplaceEntryContents = strictObject(
  'MarketplaceEntryContents',
  "What an entry's plugin holds, read exactly as a conversation loads it.",
  {
    plugin: nullable(Type.String({ description: 'The name it loads under.' })),
    skills: Type.Array(Type.String()),
    commands: Type.Array(Type.String({ description: '`/plugin:command`.' })),
    agents: Type.Array(Type.String()),
    hooks: Type.Array(Type.String({ description: '`Event [matcher]`, with `if <rule>` when it has one.' })),
    mcp_servers: Type.Array(Type.String()),
    unsupported: Type.Array(Type.String({ description: 'Components Bosun does not load (`lspServers`, ...).' })),
  },
);
export type MarketplaceEntryContents = Static<typeof MarketplaceEntryContents>;

export const MarketplaceEntry = strictObject(
  'MarketplaceEntry',
  'A plugin listed by a marketplace, resolved to a fetchable source, with its problems.',
  {
    ...describedName(),
    version: nullable(Type.String()),
    source: nullable(
      Type.String({
        description: 'Where the plugin is fetched from (`<provider>:<owner>/<repo>` or a Git URL); null: unusable.',
      }),
    ),
    ref: nullable(Type.String({ description: 'The commit or ref fetched (an entry `sha` wins over its `ref`).' })),
    repo_path: nullable(Type.String({ description: 'The plugin directory inside that repository.' })),
    contents: Type.Optional(
      nullable(
        ref(MarketplaceEntryContents, {
          description:
            'What it holds; absent: not read (a plugin in another repository, unless asked), null: not loadable.',
        }),
      ),
    ),
    problems: Type.Array(ref(PluginProblem, { description: 'Those of the entry, then those of its plugin.' })),
  },
);
export type MarketplaceEntry = Static<typeof MarketplaceEntry>;

export const MarketplaceListing = strictObject(
  'MarketplaceListing',
  'A marketplace: its plugins and what is wrong with it (`bosun marketplace inspect --json`).',
  {
    name: nullable(Type.String()),
    owner: nullable(Type.String()),
    description: nullable(Type.String()),
    manifest: nullable(Type.String({ description: 'The `marketplace.json` read, relative to the marketplace.' })),
    resolved_ref: nullable(Type.String({ description: 'The commit of the marketplace repository read.' })),
    entries: Type.Array(ref(MarketplaceEntry)),
    problems: Type.Array(ref(PluginProblem)),
  },
);
export type MarketplaceListing = Static<typeof MarketplaceListing>;
