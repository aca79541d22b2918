import { type Static, type TOptional, type TProperties, type TUnknown, Type } from '@sinclair/typebox';
import { namedEnum, nullable, openObject, ref, strictObject } from '../schema/builders.ts';
import { byProvider } from './common.ts';
import { LLMProfiles } from './llm-profiles.ts';
import { Marketplace, MarketplaceRegistration } from './marketplaces.ts';

/**
 * A user's settings, as OpenHands' `GET/POST /api/v1/settings` carry them. The LLM fields start from the
 * instance's defaults (`BOSUN_LLM_*`) and a user's own values override them. Secrets are write-only: a GET says
 * whether one is set (`llm_api_key_set`), never its value.
 */

export const SandboxGroupingStrategy = namedEnum(
  'SandboxGroupingStrategy',
  'How new conversations pick a sandbox: one each (the default), or sharing one.',
  ['NO_GROUPING', 'GROUP_BY_NEWEST', 'LEAST_RECENTLY_USED', 'FEWEST_CONVERSATIONS', 'ADD_TO_ANY'],
);
export type SandboxGroupingStrategy = Static<typeof SandboxGroupingStrategy>;

const nullableString = (description: string) => nullable(Type.String({ description }));
const nullableBoolean = (description: string) => nullable(Type.Boolean({ description }));

/** Fields a user sets and reads back as they are. */
const plainFields = {
  language: nullableString('Language of the interface, for example `en`.'),
  llm_model: nullableString('The LLM, optionally with a provider prefix (`anthropic/claude-sonnet-4-5`).'),
  llm_base_url: nullableString('Base URL of the LLM API; null for the provider default.'),
  confirmation_mode: Type.Boolean({ description: 'Whether actions wait for the user to confirm them.' }),
  security_analyzer: nullableString('The security analyzer that rates actions (`llm`), or null for none.'),
  max_iterations: nullable(Type.Integer({ minimum: 1, description: 'Most agent steps per run.' })),
  disabled_skills: Type.Array(Type.String({ minLength: 1 }), { description: 'Skills never loaded, by name.' }),
  enable_sound_notifications: Type.Boolean(),
  enable_proactive_conversation_starters: Type.Boolean(),
  user_consents_to_analytics: nullableBoolean('Null until the user has answered.'),
  git_user_name: nullableString('Author name of the agent’s commits.'),
  git_user_email: nullableString('Author email of the agent’s commits.'),
  git_full_clone: Type.Boolean({ description: 'Clone the whole history instead of a shallow clone.' }),
  sandbox_grouping_strategy: ref(SandboxGroupingStrategy),
  default_sandbox_spec_id: nullableString('The sandbox spec new conversations use.'),
  max_budget_per_task: nullable(Type.Number({ minimum: 0, description: 'Most LLM spend per task, in USD.' })),
  remote_runtime_resource_factor: nullable(Type.Integer({ minimum: 1 })),
};

export const ProviderTokensSet = byProvider(
  nullable(Type.String()),
  'The Git providers with a token, each with its host (null for the public one).',
);

export const Settings = strictObject('Settings', 'A user’s settings. No secret value is ever part of it.', {
  ...plainFields,
  agent_settings: openObject({ description: 'Settings of the agent (tools, condenser, ...).' }),
  conversation_settings: openObject({ description: 'Settings of new conversations.' }),
  llm_api_key_set: Type.Boolean({ description: 'Whether an LLM API key is set (the user’s or the instance’s).' }),
  search_api_key_set: Type.Boolean({ description: 'Whether a search API key is set.' }),
  provider_tokens_set: ProviderTokensSet,
  registered_marketplaces: Type.Array(ref(Marketplace), {
    description: 'The caller’s own marketplaces (also `/marketplaces`); a POST of the list replaces it.',
  }),
  inherited_marketplaces: Type.Array(ref(Marketplace), {
    description: 'The instance’s and the caller’s organization’s marketplaces: read-only here.',
  }),
  llm_profiles: ref(LLMProfiles, {
    description: 'The caller’s LLM profiles and the active one (read-only here: /api/v1/settings/profiles).',
  }),
  v1_enabled: Type.Boolean(),
});
export type Settings = Static<typeof Settings>;

/**
 * Read-only fields of `Settings` (and of OpenHands' `GETSettingsModel`) that clients post back with the rest:
 * accepted and ignored, so that a GET's body can be posted unchanged. `agent_settings` and `conversation_settings`
 * are among them: they change only through their `*_diff` twins.
 */
export const SETTINGS_READ_ONLY_FIELDS = [
  'agent_settings',
  'conversation_settings',
  'llm_api_key_set',
  'search_api_key_set',
  'provider_tokens_set',
  'v1_enabled',
  'email',
  'email_verified',
  'user_version',
  'secrets_store',
  'llm_profiles',
  'active_agent_profile_id',
  'active_agent_profile_revision',
  'inherited_marketplaces',
] as const;

/** Every property of `properties`, made optional. */
function optionalAll<P extends TProperties>(properties: P): { [K in keyof P]: TOptional<P[K]> } {
  return Object.fromEntries(Object.entries(properties).map(([name, schema]) => [name, Type.Optional(schema)])) as {
    [K in keyof P]: TOptional<P[K]>;
  };
}

const ignoredFields = Object.fromEntries(
  SETTINGS_READ_ONLY_FIELDS.map((name) => [name, Type.Unknown({ description: 'Read-only: accepted and ignored.' })]),
) as Record<(typeof SETTINGS_READ_ONLY_FIELDS)[number], TUnknown>;

const writeOnlySecret = () =>
  nullable(Type.String({ minLength: 1, writeOnly: true, description: 'Secret, never returned. Null removes it.' }));

const settingsUpdate = strictObject(
  'SettingsUpdate',
  'A partial update: fields left out keep their value, null resets one to its default. `agent_settings` and ' +
    '`conversation_settings` change only through their `*_diff` twins, deep-merged (a null removes a key); sent ' +
    'whole they are ignored, so two clients never overwrite each other’s changes. The read-only fields of a GET ' +
    'and unknown fields (OpenHands’ clients post their whole settings object back, with `is_new_user`, ' +
    '`condenser_max_size`...) are accepted and ignored, as OpenHands’ schema ignores them; known fields are checked.',
  optionalAll({
    ...plainFields,
    llm_api_key: writeOnlySecret(),
    search_api_key: writeOnlySecret(),
    agent_settings_diff: openObject({
      description:
        'Deep-merged into `agent_settings`; a null value removes a key. `llm.api_key` is taken as `llm_api_key` ' +
        '(sealed, never shown); any other credential here is a 422.',
    }),
    conversation_settings_diff: openObject({
      description: 'Deep-merged into `conversation_settings`; a null value removes a key.',
    }),
    registered_marketplaces: Type.Array(ref(MarketplaceRegistration), {
      maxItems: 100,
      description:
        'Replaces the caller’s whole personal list: entries left out are removed, `auto_load` defaults to false. ' +
        'A name taken twice, or by an inherited marketplace, is a 409 and nothing changes.',
    }),
    ...ignoredFields,
  }),
);
// Unknown fields ignored, not refused: the one body of the wire model that is open (see the description).
(settingsUpdate as { additionalProperties: boolean }).additionalProperties = true;
export const SettingsUpdate = settingsUpdate;
export type SettingsUpdate = Static<typeof SettingsUpdate>;
