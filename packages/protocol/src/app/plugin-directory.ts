import { type Static, Type } from '@sinclair/typebox';
import { nullable, ref, strictObject } from '../schema/builders.ts';
import { NOT_BLANK, describedName } from '../schema/fields.ts';
import { gitLocation, timestamp } from './common.ts';

/**
 * The Plugin Directory (the plugins of the instance plugin marketplace, behind `/plugins`) and the trust a user
 * confirms before a conversation loads a plugin.
 */

export const DirectoryPluginSource = strictObject(
  'DirectoryPluginSource',
  'Where a plugin of the directory is: a plugin reference of a start request.',
  {
    ...gitLocation({
      source: '`github:owner/repo` or a Git URL.',
      ref: 'The commit the directory read it at (what a launch loads).',
      repo_path: 'The plugin inside the repository.',
    }),
  },
);
export type DirectoryPluginSource = Static<typeof DirectoryPluginSource>;

export const DirectoryPlugin = strictObject('DirectoryPlugin', 'A plugin of the Plugin Directory.', {
  id: Type.String({ description: 'The plugin’s name in the marketplace (unique there).' }),
  ...describedName(),
  version: nullable(Type.String()),
  tags: Type.Array(Type.String(), { description: 'Its entry’s `tags`, `keywords` and `category`.' }),
  featured: Type.Boolean({ description: 'Listed in `plugin_directory_featured`.' }),
  source: ref(DirectoryPluginSource),
  launch_url: nullable(Type.String({ description: 'A launch link loading it with its parameters’ defaults.' })),
  loading: Type.Boolean({
    description:
      'Its plugin is still being read (a slow host): what its entry says is here; its version, launch link and ' +
      'problems follow in a later listing.',
  }),
  problems: Type.Array(Type.String(), { description: 'What is wrong with its entry or its plugin.' }),
});
export type DirectoryPlugin = Static<typeof DirectoryPlugin>;

export const DirectoryMarketplace = strictObject(
  'DirectoryMarketplace',
  'The instance plugin marketplace the directory lists.',
  {
    name: nullable(Type.String()),
    description: nullable(Type.String()),
    ...gitLocation({ ref: 'The branch, tag or commit configured.' }),
    commit: nullable(Type.String({ description: 'The commit read (null: it could not be fetched).' })),
    fetched_at: nullable(timestamp()),
    problems: Type.Array(Type.String()),
  },
);
export type DirectoryMarketplace = Static<typeof DirectoryMarketplace>;

export const DirectoryPluginList = strictObject(
  'DirectoryPluginList',
  'Plugins of the directory (all of them, or those matching a search).',
  {
    marketplace: nullable(ref(DirectoryMarketplace), { description: 'null: no marketplace is configured.' }),
    plugins: Type.Array(ref(DirectoryPlugin)),
  },
);
export type DirectoryPluginList = Static<typeof DirectoryPluginList>;

export const PluginParameter = strictObject(
  'PluginParameter',
  'A parameter of a plugin (its value is appended to the first message).',
  {
    type: Type.Union([Type.Literal('string'), Type.Literal('number'), Type.Literal('boolean')]),
    description: nullable(Type.String()),
    required: Type.Boolean(),
    default: Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Null()]),
  },
);
export type PluginParameter = Static<typeof PluginParameter>;

export const PluginExample = strictObject('PluginExample', 'An example first message.', {
  title: Type.String(),
  prompt: Type.String(),
});
export type PluginExample = Static<typeof PluginExample>;

export const DirectoryPluginConfig = strictObject(
  'DirectoryPluginConfig',
  'How to launch a plugin: read from its `plugin.json` (else its marketplace entry).',
  {
    entry_command: nullable(Type.String({ description: 'The slash command that starts it (`/plugin:command`).' })),
    parameters: Type.Record(Type.String(), ref(PluginParameter)),
    examples: Type.Array(ref(PluginExample)),
    problems: Type.Array(Type.String(), { description: 'Fields of the manifest that were ignored, and why.' }),
  },
);
export type DirectoryPluginConfig = Static<typeof DirectoryPluginConfig>;

export const PluginTrustSource = strictObject(
  'PluginTrustSource',
  'A plugin source at a commit, as trust is confirmed.',
  {
    source: Type.String({ maxLength: 2048, pattern: NOT_BLANK }),
    commit: nullable(
      Type.String({
        pattern: '^[0-9a-f]{40}$',
        description: 'The commit trusted; null: any commit of a source the server does not fetch from.',
      }),
    ),
  },
);
export type PluginTrustSource = Static<typeof PluginTrustSource>;

export const PluginTrust = strictObject('PluginTrust', 'A trust confirmation of the caller.', {
  id: Type.String({ format: 'uuid' }),
  source: Type.String(),
  commit: nullable(Type.String()),
  confirmed_at: timestamp(),
});
export type PluginTrust = Static<typeof PluginTrust>;

export const PluginTrustList = strictObject('PluginTrustList', 'The caller’s trust confirmations, newest first.', {
  items: Type.Array(ref(PluginTrust)),
});
export type PluginTrustList = Static<typeof PluginTrustList>;

export const PluginTrustRequired = strictObject(
  'PluginTrustRequired',
  'A start refused: the plugins come from sources the caller has not confirmed trust in.',
  {
    detail: Type.String(),
    sources: Type.Array(ref(PluginTrustSource), {
      description: 'To confirm: send them back as `confirmed_plugin_sources`, or POST each to /plugin-trust.',
    }),
  },
);
export type PluginTrustRequired = Static<typeof PluginTrustRequired>;
