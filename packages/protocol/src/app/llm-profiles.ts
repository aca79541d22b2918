import { type Static, Type } from '@sinclair/typebox';
import { nullable, ref, strictObject } from '../schema/builders.ts';

/**
 * A user's LLM profiles (OpenHands' `/api/v1/settings/profiles`): named LLM configurations they keep, activate
 * (the profile's LLM becomes their settings' LLM) and switch a running conversation to. A key goes in, never out:
 * answers say whether one is stored (`api_key_set`).
 */

/** A profile's name: a letter or digit, then letters, digits, `.`, `_` or `-` (at most 64 in all). */
export const LLM_PROFILE_NAME_PATTERN = '^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$';

export const profileName = (description = 'A profile’s name.') =>
  Type.String({ minLength: 1, maxLength: 64, pattern: LLM_PROFILE_NAME_PATTERN, description });

const model = () =>
  Type.String({
    minLength: 1,
    maxLength: 256,
    pattern: '\\S',
    description: 'The LLM, optionally with a provider prefix (`anthropic/claude-sonnet-4-5`).',
  });
const baseUrl = () =>
  nullable(Type.String({ maxLength: 2048, description: 'Base URL of the LLM API; null for the provider default.' }));

export const ProfileLLM = strictObject(
  'ProfileLLM',
  'The LLM a profile holds (the fields of OpenHands’ `StrictLLM` that Bosun’s settings know; any other is a 422).',
  {
    model: model(),
    base_url: Type.Optional(baseUrl()),
    api_key: Type.Optional(
      nullable(Type.String({ minLength: 1, maxLength: 4096, writeOnly: true, description: 'Never returned.' })),
    ),
  },
);
export type ProfileLLM = Static<typeof ProfileLLM>;

export const SaveProfileRequest = strictObject(
  'SaveProfileRequest',
  'What a profile is saved with: `llm`, else a copy of the caller’s settings’ LLM (model, base URL, key).',
  {
    include_secrets: Type.Optional(
      Type.Boolean({ default: true, description: 'false: the API key is not stored with the profile.' }),
    ),
    llm: Type.Optional(nullable(ref(ProfileLLM))),
    preserve_existing_api_key: Type.Optional(
      Type.Boolean({
        default: false,
        description: 'true: a profile saved again keeps its stored key when this save gives none.',
      }),
    ),
  },
);
export type SaveProfileRequest = Static<typeof SaveProfileRequest>;

export const ProfileInfo = strictObject('ProfileInfo', 'A profile as listed: never its key.', {
  name: Type.String(),
  model: nullable(Type.String()),
  base_url: nullable(Type.String()),
  api_key_set: Type.Boolean({ description: 'Whether the profile stores an API key.' }),
});
export type ProfileInfo = Static<typeof ProfileInfo>;

export const ProfileListResponse = strictObject('ProfileListResponse', 'The caller’s profiles, by name.', {
  profiles: Type.Array(ref(ProfileInfo)),
  active_profile: nullable(Type.String({ description: 'The profile last activated, while the settings hold it.' })),
});
export type ProfileListResponse = Static<typeof ProfileListResponse>;

export const ProfileConfig = strictObject('ProfileConfig', 'A profile’s LLM, its key left out (always null).', {
  model: Type.String(),
  base_url: nullable(Type.String()),
  api_key: Type.Null({ description: 'Always null: `api_key_set` says whether a key is stored.' }),
});
export type ProfileConfig = Static<typeof ProfileConfig>;

export const ProfileDetailResponse = strictObject('ProfileDetailResponse', 'One profile.', {
  name: Type.String(),
  config: ref(ProfileConfig),
  api_key_set: Type.Boolean({ description: 'Whether the profile stores an API key.' }),
});
export type ProfileDetailResponse = Static<typeof ProfileDetailResponse>;

export const ProfileMutationResponse = strictObject('ProfileMutationResponse', 'The profile changed.', {
  name: Type.String(),
  message: Type.String({ description: 'What was done, for a human.' }),
});
export type ProfileMutationResponse = Static<typeof ProfileMutationResponse>;

export const ActivateProfileResponse = strictObject(
  'ActivateProfileResponse',
  'The profile activated: its LLM is the settings’ now.',
  {
    name: Type.String(),
    message: Type.String({ description: 'What was done, for a human.' }),
    model: nullable(Type.String()),
  },
);
export type ActivateProfileResponse = Static<typeof ActivateProfileResponse>;

export const RenameProfileRequest = strictObject('RenameProfileRequest', 'A profile’s new name.', {
  new_name: profileName('The new name (a 409 when another profile of the caller has it).'),
});
export type RenameProfileRequest = Static<typeof RenameProfileRequest>;

export const SwitchProfileRequest = strictObject(
  'SwitchProfileRequest',
  'The profile whose LLM a running conversation switches to.',
  { profile_name: profileName('A profile saved through /api/v1/settings/profiles.') },
);
export type SwitchProfileRequest = Static<typeof SwitchProfileRequest>;

export const LLMProfiles = strictObject('LLMProfiles', 'The caller’s profiles, by name, and the active one.', {
  profiles: Type.Record(Type.String(), ref(ProfileInfo)),
  active: nullable(Type.String({ description: 'The profile last activated, while the settings hold its LLM.' })),
});
export type LLMProfiles = Static<typeof LLMProfiles>;
