import { InputError } from '@bosun/http';
import type { LLMProfiles, Marketplace, Settings } from '@bosun/protocol';
import { SETTINGS_READ_ONLY_FIELDS, SettingsUpdate } from '@bosun/protocol';
import type { StoredSettings } from '../identity/stores.ts';
import { credentialKeyPaths } from './credential-keys.ts';
import { type LlmDefaults, effectiveLlm } from './llm-defaults.ts';
import { retryPolicyProblems } from './llm-retry.ts';

/** What a user who never saved settings has. */
const DEFAULTS = {
  language: null,
  confirmation_mode: false,
  security_analyzer: null,
  max_iterations: null,
  disabled_skills: [],
  enable_sound_notifications: false,
  enable_proactive_conversation_starters: true,
  user_consents_to_analytics: null,
  git_user_name: null,
  git_user_email: null,
  git_full_clone: false,
  sandbox_grouping_strategy: 'NO_GROUPING',
  default_sandbox_spec_id: null,
  max_budget_per_task: null,
  remote_runtime_resource_factor: null,
  agent_settings: {},
  conversation_settings: {},
} satisfies Partial<Settings>;

/** The settings a GET answers: stored values over defaults, secrets only as `*_set` flags. */
export function settingsView(
  stored: StoredSettings,
  defaults: LlmDefaults,
  providers: { provider: string; host: string | null }[],
  marketplaces: { registered: Marketplace[]; inherited: Marketplace[] },
  llmProfiles: LLMProfiles,
): Settings {
  const llm = effectiveLlm(stored, defaults);
  const own = Object.fromEntries(
    Object.keys(DEFAULTS)
      .filter((k) => k in stored)
      .map((k) => [k, stored[k]]),
  );
  return {
    ...DEFAULTS,
    ...own,
    llm_model: llm.model,
    llm_base_url: llm.baseUrl,
    llm_api_key_set: llm.apiKey !== null,
    search_api_key_set: typeof stored.search_api_key === 'string',
    provider_tokens_set: Object.fromEntries(providers.map(({ provider, host }) => [provider, host])),
    registered_marketplaces: marketplaces.registered,
    inherited_marketplaces: marketplaces.inherited,
    llm_profiles: llmProfiles,
    v1_enabled: true,
  } as Settings;
}

/**
 * The update as the server applies it: only the fields `SettingsUpdate` names (a client posting its whole settings
 * object back sends others, ignored), with a key at `agent_settings_diff.llm.api_key` moved to `llm_api_key`, where
 * it is sealed as any LLM key. Two different keys in one update are a 422.
 */
export function knownUpdate(body: SettingsUpdate): SettingsUpdate {
  const known = Object.fromEntries(
    Object.entries(body).filter(([field]) => Object.hasOwn(SettingsUpdate.properties, field)),
  ) as SettingsUpdate;
  const diff = known.agent_settings_diff;
  const llm = diff?.llm;
  if (!diff || !isObject(llm) || !Object.hasOwn(llm, 'api_key')) return known;
  const { api_key: key, ...rest } = llm;
  if (key !== null && (typeof key !== 'string' || key.length === 0)) {
    throw problem(['body', 'agent_settings_diff', 'llm', 'api_key'], 'The LLM API key must be a non-empty string');
  }
  if (known.llm_api_key !== undefined && known.llm_api_key !== key) {
    throw problem(['body', 'agent_settings_diff', 'llm', 'api_key'], 'Differs from llm_api_key: send one LLM key');
  }
  const { llm: _llm, ...others } = diff;
  const agentDiff = Object.keys(rest).length > 0 ? { ...others, llm: rest } : others;
  return { ...known, llm_api_key: key, agent_settings_diff: agentDiff };
}

/**
 * The merge patch that `update` (a `knownUpdate`) makes of the stored settings: fields sent replace (null clears:
 * the default applies again), `*_settings_diff` deep-merge into their object. A credential inside those objects is
 * refused (422): it would be stored and shown in clear.
 */
export function settingsPatch(update: SettingsUpdate): StoredSettings {
  const problems = (['agent_settings_diff', 'conversation_settings_diff'] as const).flatMap((field) =>
    credentialKeyPaths(update[field]).map((path) => ({
      loc: ['body', field, ...path],
      msg: 'Credentials do not belong in settings: use llm_api_key or a custom secret (/api/v1/secrets)',
      type: 'value_error',
    })),
  );
  problems.push(...retryPolicyProblems(update.agent_settings_diff));
  if (problems.length > 0) throw new InputError(problems);
  // The personal marketplaces are rows of their own (the marketplaces registry), not part of the settings object.
  const ignored = new Set<string>([...SETTINGS_READ_ONLY_FIELDS, 'registered_marketplaces']);
  const patch: StoredSettings = {};
  for (const [field, value] of Object.entries(update)) {
    if (ignored.has(field) || value === undefined) continue;
    patch[field.endsWith('_settings_diff') ? field.slice(0, -'_diff'.length) : field] = value;
  }
  return patch;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const problem = (loc: string[], msg: string) => new InputError([{ loc, msg, type: 'value_error' }]);
