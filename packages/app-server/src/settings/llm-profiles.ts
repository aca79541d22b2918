import { InputError } from '@bosun/http';
import type { LLMProfiles, ProfileInfo, SaveProfileRequest, SettingsUpdate } from '@bosun/protocol';
import type { JsonObject, LlmProfile, LlmProfileConfig, LlmProfileInfo, LlmProfileSave } from '../data/index.ts';
import type { StoredSettings } from '../identity/stores.ts';
import { type EffectiveLlm, type LlmDefaults, effectiveLlm } from './llm-defaults.ts';

/**
 * The settings' LLM fields a profile's activation writes, as a merge patch: a null removes the field, so the
 * instance's default applies to it again (a profile without a base URL and key uses the instance's endpoint and
 * key, as the settings do).
 */
export function activationPatch(profile: LlmProfileConfig): JsonObject {
  return { llm_model: profile.model, llm_base_url: profile.base_url, llm_api_key: profile.api_key };
}

/** The LLM a conversation switched to the profile uses: the profile over the instance's defaults, as activated. */
export function profileLlm(profile: LlmProfileConfig, defaults: LlmDefaults): EffectiveLlm {
  const own = Object.entries(activationPatch(profile)).filter(([, value]) => value !== null);
  return effectiveLlm(Object.fromEntries(own), defaults);
}

/**
 * Whether the settings' LLM, after `update`, is still the active profile's: each LLM field the update sets must
 * equal the profile's own value or the one it takes from the instance (what GET /settings shows).
 */
export function stillActive(update: SettingsUpdate, defaults: LlmDefaults) {
  return (profile: LlmProfile): boolean => {
    const effective = profileLlm(profile, defaults);
    const same = (sent: string | null | undefined, own: string | null, shown: string | null) =>
      sent === undefined || sent === own || sent === shown;
    return (
      same(update.llm_model, profile.model, effective.model) &&
      same(update.llm_base_url, profile.base_url, effective.baseUrl) &&
      same(update.llm_api_key, profile.api_key, effective.apiKey)
    );
  };
}

/** Whether an update sets one of the settings' LLM fields. */
export const setsLlm = (update: SettingsUpdate) =>
  update.llm_model !== undefined || update.llm_base_url !== undefined || update.llm_api_key !== undefined;

export const profileInfo = (profile: LlmProfileInfo): ProfileInfo => ({
  name: profile.name,
  model: profile.model,
  base_url: profile.base_url,
  api_key_set: profile.api_key_set,
});

/** The name of the active one among `profiles`, or null. */
export const activeName = (profiles: LlmProfileInfo[]) => profiles.find((profile) => profile.active)?.name ?? null;

/** The `llm_profiles` of GET /settings. */
export function llmProfilesView(profiles: LlmProfileInfo[]): LLMProfiles {
  return {
    profiles: Object.fromEntries(profiles.map((profile) => [profile.name, profileInfo(profile)])),
    active: activeName(profiles),
  };
}

/**
 * What a save stores: the request's `llm`, else the LLM of the caller's settings (their model or the instance's;
 * their own base URL and key only: the instance's key stays with the instance's endpoint). A 422 at `body.llm`
 * when there is no model to save.
 */
export function savedConfig(
  request: SaveProfileRequest | null | undefined,
  stored: StoredSettings,
  defaults: LlmDefaults,
): LlmProfileSave {
  const { llm, include_secrets = true, preserve_existing_api_key = false } = request ?? {};
  const own = (value: unknown) => (typeof value === 'string' && value.length > 0 ? value : null);
  const model = llm ? llm.model : (own(stored.llm_model) ?? defaults.model ?? null);
  if (!model) {
    throw new InputError([
      { loc: ['body', 'llm'], msg: 'Your settings have no LLM to save: send one in llm', type: 'value_error' },
    ]);
  }
  const base_url = llm ? (llm.base_url ?? null) : own(stored.llm_base_url);
  const key = include_secrets ? (llm ? (llm.api_key ?? null) : own(stored.llm_api_key)) : null;
  return { model, base_url, ...(key === null && preserve_existing_api_key ? {} : { api_key: key }) };
}
