import { type Static, type TOptional, type TUnknown, Type } from '@sinclair/typebox';
import { MarketplaceListing } from '../api/marketplaces.ts';
import { PluginProblem } from '../api/plugins.ts';
import { SkillOrigin } from '../api/skills.ts';
import { namedEnum, nullable, ref, strictObject } from '../schema/builders.ts';
import { describedName } from '../schema/fields.ts';
import { gitLocation, timestamp } from './common.ts';

/**
 * Marketplaces registered in the application: the instance's (from the server's configuration, read-only), an
 * organization's (its owners and admins write them) and a user's own. What a user's conversations get is the
 * composition, by name: instance < organization < personal.
 */

export const MarketplaceScope = namedEnum(
  'MarketplaceScope',
  'Who a registration belongs to: the instance (configuration), an organization, or one user.',
  ['instance', 'organization', 'personal'],
);
export type MarketplaceScope = Static<typeof MarketplaceScope>;

const NAME_PATTERN = '^[A-Za-z][A-Za-z0-9_-]*$';
const name = (description: string) => Type.String({ minLength: 1, maxLength: 64, pattern: NAME_PATTERN, description });
const ref_ = Type.String({
  minLength: 1,
  maxLength: 255,
  description: 'Branch, tag or commit (default branch: null).',
});
const repoPath = Type.String({
  minLength: 1,
  maxLength: 1024,
  description: 'The marketplace directory inside the repository: relative, no `..`, no `://`.',
});
const version = Type.String({
  minLength: 1,
  maxLength: 64,
  description: 'The organization’s marketplaces version read (`org_version`): a write with a stale one is a 409.',
});

export const MarketplaceUpdates = namedEnum(
  'MarketplaceUpdates',
  '`follow`: new conversations load the commit the ref names then; `review`: the approved commit, until an ' +
    'update is reviewed (the Skills & Plugins table shows what changed) and approved.',
  ['follow', 'review'],
);
export type MarketplaceUpdates = Static<typeof MarketplaceUpdates>;

const sha = Type.String({ pattern: '^[0-9a-f]{40}$', description: 'A full commit SHA.' });

export const MarketplaceCreate = strictObject('MarketplaceCreate', 'A marketplace to register.', {
  source: Type.String({
    minLength: 1,
    maxLength: 2048,
    description:
      'The repository: `github:owner/repo`, `gitlab:group/repo`, `bitbucket:owner/repo` or a Git URL (no credentials).',
  }),
  name: Type.Optional(name('Its name (unique across scopes); default: derived from the source.')),
  ref: Type.Optional(nullable(ref_)),
  repo_path: Type.Optional(nullable(repoPath)),
  auto_load: Type.Optional(
    Type.Boolean({ description: 'Load its plugins into every new conversation (default false).' }),
  ),
  updates: Type.Optional(ref(MarketplaceUpdates, { description: 'Default `follow`.' })),
  scope: Type.Optional(
    Type.Union([Type.Literal('personal'), Type.Literal('organization')], {
      description: 'personal (default) or organization (its owners and admins only).',
    }),
  ),
  org_id: Type.Optional(
    Type.String({ format: 'uuid', description: 'The organization (default: the one the request acts in).' }),
  ),
  expected_version: Type.Optional(version),
});
export type MarketplaceCreate = Static<typeof MarketplaceCreate>;

export const MarketplaceUpdate = strictObject(
  'MarketplaceUpdate',
  'A change of a registration (its source and name stay: register another one to change them).',
  {
    ref: Type.Optional(nullable(ref_)),
    repo_path: Type.Optional(nullable(repoPath)),
    auto_load: Type.Optional(Type.Boolean()),
    updates: Type.Optional(ref(MarketplaceUpdates)),
    expected_version: Type.Optional(version),
  },
);
export type MarketplaceUpdate = Static<typeof MarketplaceUpdate>;

export const Marketplace = strictObject('Marketplace', 'A registered marketplace, as the caller sees it.', {
  name: Type.String(),
  ...gitLocation(),
  auto_load: Type.Boolean(),
  updates: ref(MarketplaceUpdates),
  approved_ref: nullable(Type.String({ description: 'With `review`: the commit new conversations load.' })),
  scope: ref(MarketplaceScope),
  org_id: nullable(Type.String({ description: 'The organization of an organization entry.' })),
  writable: Type.Boolean({ description: 'Whether the caller may change or delete it.' }),
  overridden_by: nullable(
    ref(MarketplaceScope, { description: 'The scope of a later entry of the same name that wins over this one.' }),
  ),
  registered_by: nullable(Type.String({ description: 'The user who registered it (null: the configuration).' })),
  registered_at: nullable(timestamp()),
  updated_at: nullable(timestamp()),
});
export type Marketplace = Static<typeof Marketplace>;

/** What a registration's GET shows and a client may post back: accepted and ignored on a write. */
const REGISTRATION_READ_ONLY = [
  'scope',
  'org_id',
  'approved_ref',
  'writable',
  'overridden_by',
  'registered_by',
  'registered_at',
  'updated_at',
] as const;
const registrationReadOnly = Object.fromEntries(
  REGISTRATION_READ_ONLY.map((field) => [
    field,
    Type.Optional(Type.Unknown({ description: 'Read-only: accepted and ignored.' })),
  ]),
) as Record<(typeof REGISTRATION_READ_ONLY)[number], TOptional<TUnknown>>;

export const MarketplaceRegistration = strictObject(
  'MarketplaceRegistration',
  'A personal marketplace in the list `POST /settings` replaces (as OpenHands’ `registered_marketplaces`): ' +
    'validated as `MarketplaceCreate`; the scope is always personal, and the fields a GET adds are ignored.',
  {
    source: MarketplaceCreate.properties.source,
    name: MarketplaceCreate.properties.name,
    ref: MarketplaceCreate.properties.ref,
    repo_path: MarketplaceCreate.properties.repo_path,
    auto_load: MarketplaceCreate.properties.auto_load,
    updates: MarketplaceCreate.properties.updates,
    ...registrationReadOnly,
  },
);
export type MarketplaceRegistration = Static<typeof MarketplaceRegistration>;

export const MarketplaceList = strictObject(
  'MarketplaceList',
  'The marketplaces the caller’s new conversations compose.',
  {
    items: Type.Array(ref(Marketplace), {
      description: 'Instance, then organization, then personal entries; each in the order registered.',
    }),
    org_id: nullable(Type.String({ description: 'The organization composed in (null: none).' })),
    org_version: nullable(Type.String({ description: 'Its marketplaces’ version, for `expected_version`.' })),
  },
);
export type MarketplaceList = Static<typeof MarketplaceList>;

export const MarketplaceApproval = strictObject(
  'MarketplaceApproval',
  'The commit of a `review` marketplace that new conversations load from now on.',
  {
    approved_ref: sha,
    expected_version: Type.Optional(version),
  },
);
export type MarketplaceApproval = Static<typeof MarketplaceApproval>;

export const ComponentChanges = strictObject('ComponentChanges', 'What an update adds and removes.', {
  added: Type.Array(Type.String()),
  removed: Type.Array(Type.String()),
});
export type ComponentChanges = Static<typeof ComponentChanges>;

export const PluginChanges = strictObject('PluginChanges', 'What an update of a marketplace changes in one plugin.', {
  status: Type.Union([
    Type.Literal('added'),
    Type.Literal('removed'),
    Type.Literal('changed'),
    Type.Literal('unchanged'),
  ]),
  skills: ref(ComponentChanges),
  commands: ref(ComponentChanges),
  hooks: ref(ComponentChanges, { description: 'Hooks as `Event [matcher] if rule: command`.' }),
  mcp_servers: ref(ComponentChanges),
});
export type PluginChanges = Static<typeof PluginChanges>;

export const MarketplacePreviewRequest = strictObject(
  'MarketplacePreviewRequest',
  'A marketplace to read without registering it.',
  {
    source: Type.String({ minLength: 1, maxLength: 2048, description: 'As in MarketplaceCreate.' }),
    ref: Type.Optional(nullable(ref_)),
    repo_path: Type.Optional(nullable(repoPath)),
  },
);
export type MarketplacePreviewRequest = Static<typeof MarketplacePreviewRequest>;

export const MarketplacePreview = strictObject(
  'MarketplacePreview',
  'A marketplace read at a commit: nothing is registered.',
  {
    ...gitLocation(),
    resolved_ref: Type.String({ description: 'The commit read.' }),
    marketplace: ref(MarketplaceListing, { description: 'Its plugins (and what they hold) and every problem.' }),
  },
);
export type MarketplacePreview = Static<typeof MarketplacePreview>;

export const LoadedMarketplace = strictObject(
  'LoadedMarketplace',
  'An auto-loaded marketplace of a conversation, pinned to the commit it started with.',
  {
    name: Type.String(),
    scope: ref(MarketplaceScope),
    ...gitLocation({ ref: 'The ref registered.' }),
    resolved_ref: nullable(Type.String({ description: 'The commit passed to the conversation; null: not loaded.' })),
    registered_by: nullable(Type.String({ description: 'Who registered (and so trusted) it; null: the instance.' })),
    registered_at: nullable(timestamp()),
    problem: nullable(Type.String({ description: 'Why it was not loaded.' })),
  },
);
export type LoadedMarketplace = Static<typeof LoadedMarketplace>;

export const SkillsTableRow = strictObject('SkillsTableRow', 'A row of the Skills & Plugins table.', {
  kind: Type.Union([Type.Literal('plugin'), Type.Literal('marketplace'), Type.Literal('skill_repository')], {
    description:
      '`plugin`: an entry of a marketplace; `marketplace`: one that could not be read (see problems); ' +
      "`skill_repository`: an organization's or the user's skills repository (`.agents`, `bosun-config`, the " +
      'legacy `.bosun`), its skills read at `resolved_ref` (null: skipped, the problem says why).',
  }),
  ...describedName(),
  origin: Type.Optional(
    ref(SkillOrigin, {
      description:
        'Where its skills come from: `marketplace` (a plugin of a registered marketplace), ' +
        '`organization_repository` or `user_repository` (a skills repository).',
    }),
  ),
  scope: ref(MarketplaceScope),
  marketplace: Type.String({
    description: 'The registered marketplace it comes from (a skills repository: its own `owner/name`).',
  }),
  source: nullable(Type.String({ description: 'Where it is fetched from.' })),
  ref: nullable(Type.String({ description: 'The ref registered (marketplace) or listed (entry).' })),
  resolved_ref: nullable(Type.String({ description: 'The commit of the marketplace read (with `review`: approved).' })),
  auto_load: Type.Boolean({ description: 'Whether new conversations load it.' }),
  pending_ref: nullable(
    Type.String({ description: 'With `review`: the commit the ref names now, when it is not the approved one.' }),
  ),
  changes: nullable(ref(PluginChanges, { description: 'What approving `pending_ref` would change in it.' })),
  skills: Type.Array(Type.String()),
  disabled_skills: Type.Array(Type.String({ description: 'Of its skills, those the user turned off.' })),
  commands: Type.Array(Type.String()),
  agents: Type.Array(Type.String({ description: 'Its subagent definitions, by name (listed; not run).' })),
  hooks: Type.Array(Type.String()),
  mcp_servers: Type.Array(Type.String()),
  problems: Type.Array(ref(PluginProblem)),
});
export type SkillsTableRow = Static<typeof SkillsTableRow>;

export const SkillsTable = strictObject(
  'SkillsTable',
  'What the registered marketplaces bring, read now (the marketplaces’ current commits).',
  {
    rows: Type.Array(ref(SkillsTableRow), { description: 'In the composition’s order, each marketplace’s entries.' }),
    disabled_skills: Type.Array(Type.String(), { description: 'The user’s `disabled_skills` (settings).' }),
  },
);
export type SkillsTable = Static<typeof SkillsTable>;
