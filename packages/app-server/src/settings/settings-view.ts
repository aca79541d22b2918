import type { ProviderType, Settings, SettingsUpdate } from '@bosun/protocol';
import { SETTINGS_READ_ONLY_FIELDS } from '@bosun/protocol';
import { type LlmDefaults, effectiveLlm } from './llm-defaults.ts';
import { type JsonObject, deepMerge, secretKeyPaths } from './merge.ts';
import type { StoredSettings } from './settings-store.ts';

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
  providerHosts: Partial<Record<ProviderType, string | null>>,
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
    provider_tokens_set: providerHosts,
    v1_enabled: true,
  } as Settings;
}

/** Why an update is refused: where in the body, and what is wrong. */
export interface SettingsProblem {
  loc: (string | number)[];
  msg: string;
  type: string;
}

/**
 * The stored settings after `update`: fields sent replace (null clears), `agent_settings` and
 * `conversation_settings` replace the whole object and their `*_diff` twins deep-merge into it. A credential
 * inside those objects is refused: it would be stored and returned in clear.
 */
export function applySettingsUpdate(
  stored: StoredSettings,
  update: SettingsUpdate,
): StoredSettings | SettingsProblem[] {
  const problems = Object.entries(update).flatMap(([field, value]) =>
    field.endsWith('_settings') || field.endsWith('_settings_diff')
      ? secretKeyPaths(value as JsonObject).map((path) => ({
          loc: ['body', field, ...path],
          msg: 'Credentials do not belong in settings: use llm_api_key or a custom secret (/api/v1/secrets)',
          type: 'value_error',
        }))
      : [],
  );
  if (problems.length > 0) return problems;
  const next: StoredSettings = { ...stored };
  const ignored = new Set<string>(SETTINGS_READ_ONLY_FIELDS);
  for (const [field, value] of Object.entries(update)) {
    if (ignored.has(field) || field.endsWith('_diff') || value === undefined) continue;
    if (value === null) delete next[field];
    else next[field] = value as StoredSettings[string];
  }
  for (const name of ['agent_settings', 'conversation_settings'] as const) {
    const diff = update[`${name}_diff`];
    if (diff) next[name] = deepMerge((next[name] as JsonObject | undefined) ?? {}, diff as JsonObject);
  }
  return next;
}
