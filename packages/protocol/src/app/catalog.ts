import { type Static, Type } from '@sinclair/typebox';
import { SkillOrigin } from '../api/skills.ts';
import { nullable, ref, strictObject, stringEnum } from '../schema/builders.ts';
import { ProviderType, pageOf } from './common.ts';
import { MarketplaceScope } from './marketplaces.ts';
import { SettingsUpdate } from './settings.ts';

/**
 * What a web client offers to pick from on its settings and home pages (OpenHands' V1 catalog routes): the JSON
 * Schemas of the settings objects, the LLM models and providers, the skills of a new conversation and what the app
 * knows of the caller's Git account.
 */

/**
 * What `agent_settings_diff` and `conversation_settings_diff` of `POST /api/v1/settings` accept: the very schemas
 * of `SettingsUpdate` that validate them (not a copy), answered by `/settings/agent-schema` and
 * `/settings/conversation-schema`.
 */
export const AGENT_SETTINGS_SCHEMA = SettingsUpdate.properties.agent_settings_diff;
export const CONVERSATION_SETTINGS_SCHEMA = SettingsUpdate.properties.conversation_settings_diff;

export const LLMModel = strictObject('LLMModel', 'An LLM a user can pick (OpenHands’ LLMModel).', {
  provider: nullable(Type.String({ description: 'Its provider (`anthropic`), or null for a bare model name.' })),
  name: Type.String({ description: 'The model’s name at the provider; `llm_model` is `<provider>/<name>`.' }),
  verified: Type.Boolean({ description: 'Reached through a wire format Bosun’s own tests exercise.' }),
  hidden: Type.Boolean({ description: 'Served but not offered (always false in Bosun: it has no alias routes).' }),
  canonical: nullable(Type.String({ description: 'For a hidden model: the visible one it aliases (always null).' })),
});
export type LLMModel = Static<typeof LLMModel>;

export const LLMModelPage = pageOf('LLMModelPage', 'A page of LLM models.', LLMModel);
export type LLMModelPage = Static<typeof LLMModelPage>;

export const LLMProviderInfo = strictObject('Provider', 'An LLM provider (OpenHands’ Provider).', {
  name: Type.String({ description: 'The provider’s name: the prefix of `llm_model`.' }),
  verified: Type.Boolean({ description: 'Its wire format is exercised by Bosun’s own tests.' }),
});
export type LLMProviderInfo = Static<typeof LLMProviderInfo>;

export const ProviderPage = pageOf('ProviderPage', 'A page of LLM providers.', LLMProviderInfo);
export type ProviderPage = Static<typeof ProviderPage>;

export const SkillSummary = strictObject(
  'SkillSummary',
  'A skill a new conversation of the caller loads (OpenHands’ SkillInfo of `/skills/search`).',
  {
    name: Type.String({
      description:
        'As the agent names it: `plugin:skill`, a command `plugin:command`, an agent `plugin:agent`. The part after ' +
        'the plugin reaches it too (`/skill`, and turned off in `disabled_skills`) when no other skill has it.',
    }),
    type: stringEnum(['knowledge', 'agentskills', 'agent'], {
      description:
        '`agentskills`: a SKILL.md of a plugin; `knowledge`: a command, triggered by its slash command; `agent`: a ' +
        'subagent definition of the plugin (listed so that a table shows what the plugin holds; Bosun does not run it).',
    }),
    source: ref(MarketplaceScope, { description: 'The scope of the marketplace that brings it.' }),
    triggers: nullable(Type.Array(Type.String()), { description: 'A command’s slash command; null for a skill.' }),
    marketplace: Type.String({ description: 'The registered marketplace that brings it.' }),
    plugin: Type.String({ description: 'The plugin that brings it.' }),
    origin: Type.Optional(ref(SkillOrigin, { description: 'Where it comes from: `marketplace`.' })),
    commit: Type.Optional(nullable(Type.String({ description: 'The commit of the marketplace it is read at.' }))),
    disabled: Type.Boolean({ description: 'Turned off by the caller (`disabled_skills` of the settings).' }),
  },
);
export type SkillSummary = Static<typeof SkillSummary>;

export const SkillPage = pageOf('SkillPage', 'A page of the skills a new conversation loads.', SkillSummary);
export type SkillPage = Static<typeof SkillPage>;

const unknownHere = (what: string) =>
  nullable(
    Type.String({ description: `${what}, as the provider’s \`GET /user\` says (null when it cannot be asked).` }),
  );

export const UserGitInfo = strictObject(
  'UserGitInfo',
  'The caller’s Git account (OpenHands’ UserGitInfo): the account behind the token stored for the provider, as ' +
    'the provider describes it; its fields stay null when the provider cannot be asked.',
  {
    id: unknownHere('The account’s id at the provider'),
    login: unknownHere('The account’s login'),
    avatar_url: unknownHere('The account’s avatar'),
    company: unknownHere('The account’s company'),
    name: unknownHere('The account’s name'),
    email: unknownHere('The account’s email'),
    provider: ref(ProviderType, {
      description: 'The provider described: the first connected, in ProviderType’s order.',
    }),
    host: nullable(Type.String({ description: 'Its host as stored with the token (null: the public one).' })),
    token_set: Type.Boolean({ description: 'Whether a token is stored for it (always true: none is a 403).' }),
  },
);
export type UserGitInfo = Static<typeof UserGitInfo>;
