import type {
  ActivateProfileResponse,
  ProfileDetailResponse,
  ProfileListResponse,
  ProfileMutationResponse,
  RenameProfileRequest,
  SaveProfileRequest,
  SwitchProfileRequest,
} from '@bosun/protocol';
import { profileName } from '@bosun/protocol';
import { Type } from '@sinclair/typebox';
import type { preHandlerAsyncHookHandler } from 'fastify';
import {
  ConversationParams,
  tags as conversationTags,
  idOf,
} from '../../conversations/routes/app-conversation-wire.ts';
import { upstream } from '../../conversations/routes/app-conversations.ts';
import { MAX_LLM_PROFILES, type Repositories } from '../../data/index.ts';
import type { ApiRoutes } from '../../http/api-routes.ts';
import { conflictsAs409, notFound, shape } from '../../http/replies.ts';
import { routeOptions } from '../../http/route-options.ts';
import { principalOf } from '../../identity/authenticate.ts';
import { activationPatch, activeName, profileInfo, savedConfig } from '../../settings/llm-profiles.ts';
import { type SwitchDeps, switchConversationProfile } from '../switch.ts';

const route = routeOptions('Settings');
const conversationRoute = routeOptions(...conversationTags);
const ProfileParams = Type.Object({ name: profileName() }, { additionalProperties: false });
type ProfileParams = { name: string };
const PROFILE = '/settings/profiles/:name';
const SAVE_DESCRIPTION = [
  'With `llm`, that LLM; without, a copy of the caller’s settings’ LLM. `include_secrets: false` stores no key;',
  '`preserve_existing_api_key: true` keeps the key of a profile saved again when none is given.',
  `A 409 beyond ${MAX_LLM_PROFILES} profiles per user.`,
].join(' ');

/** What the profile routes need: the repositories (settings, profiles, conversations), sandboxes, LLM defaults. */
export type LlmProfileDeps = SwitchDeps & {
  repositories: SwitchDeps['repositories'] & Pick<Repositories, 'settings'>;
  /** What limits a user's saves (each seals a key): counted with their secret writes. */
  saveLimit?: preHandlerAsyncHookHandler;
};

/**
 * `/api/v1/settings/profiles` (OpenHands' LLM profiles: saved, listed, read without their key, activated into the
 * settings, renamed, deleted) and `POST /api/v1/app-conversations/{id}/switch_profile`. Each user reaches only
 * their own: another user's profile or conversation is a 404.
 */
export function llmProfilesApi(deps: LlmProfileDeps): ApiRoutes {
  const { llmProfiles, settings } = deps.repositories;
  return (api) => {
    api.get(
      '/settings/profiles',
      route('The caller’s LLM profiles, by name (never a key)', { response: { 200: 'ProfileListResponse' } }),
      async (request): Promise<ProfileListResponse> => {
        const profiles = await llmProfiles.list(principalOf(request).userId);
        return { profiles: profiles.map(profileInfo), active_profile: activeName(profiles) };
      },
    );

    api.get<{ Params: ProfileParams }>(
      PROFILE,
      route('One of the caller’s LLM profiles (its key left out: `api_key_set` says whether it has one)', {
        params: ProfileParams,
        response: { 200: 'ProfileDetailResponse' },
      }),
      async (request, reply) => {
        const profile = await llmProfiles.get(principalOf(request).userId, request.params.name);
        if (!profile) return notFound(reply, 'Profile');
        const { name, model, base_url, api_key_set } = profile;
        return { name, config: { model, base_url, api_key: null }, api_key_set } satisfies ProfileDetailResponse;
      },
    );

    api.post<{ Params: ProfileParams; Body: SaveProfileRequest | null | undefined }>(
      PROFILE,
      {
        ...route('Save an LLM profile (a profile of that name is overwritten)', {
          description: SAVE_DESCRIPTION,
          params: ProfileParams,
          body: Type.Union([shape('SaveProfileRequest'), Type.Null()]),
          response: { 201: 'ProfileMutationResponse', 409: 'HTTPError', 429: 'HTTPError' },
        }),
        ...(deps.saveLimit ? { preHandler: deps.saveLimit } : {}),
      },
      async (request, reply) => {
        const { userId } = principalOf(request);
        const { name } = request.params;
        const config = savedConfig(request.body, (await settings.get(userId)) ?? {}, deps.llmDefaults);
        await conflictsAs409(() => llmProfiles.save(userId, name, config));
        return reply.code(201).send({ name, message: 'Profile saved' } satisfies ProfileMutationResponse);
      },
    );

    api.delete<{ Params: ProfileParams }>(
      PROFILE,
      route('Delete an LLM profile (the settings keep the LLM it gave them)', {
        params: ProfileParams,
        response: { 200: 'ProfileMutationResponse' },
      }),
      async (request, reply) => {
        const { name } = request.params;
        const deleted = await llmProfiles.delete(principalOf(request).userId, name);
        return deleted
          ? ({ name, message: 'Profile deleted' } satisfies ProfileMutationResponse)
          : notFound(reply, 'Profile');
      },
    );

    api.post<{ Params: ProfileParams }>(
      `${PROFILE}/activate`,
      route('Activate an LLM profile: its model, base URL and key become the settings’ LLM', {
        description: 'New conversations use it. A base URL or key the profile lacks is the instance’s again.',
        params: ProfileParams,
        response: { 200: 'ActivateProfileResponse', 409: 'HTTPError' },
      }),
      async (request, reply) => {
        const { userId } = principalOf(request);
        const profile = await llmProfiles.get(userId, request.params.name);
        if (!profile) return notFound(reply, 'Profile');
        await conflictsAs409(() =>
          settings.update(userId, activationPatch(profile), llmProfiles.markActive(userId, profile)),
        );
        const { name, model } = profile;
        return { name, model, message: `Profile ${name} activated` } satisfies ActivateProfileResponse;
      },
    );

    api.post<{ Params: ProfileParams; Body: RenameProfileRequest }>(
      `${PROFILE}/rename`,
      route('Rename an LLM profile (its key, and whether it is active, go with it)', {
        params: ProfileParams,
        body: shape('RenameProfileRequest'),
        response: { 200: 'ProfileMutationResponse', 409: 'HTTPError' },
      }),
      async (request, reply) => {
        const { new_name } = request.body;
        const renamed = await conflictsAs409(() =>
          llmProfiles.rename(principalOf(request).userId, request.params.name, new_name),
        );
        if (!renamed) return notFound(reply, 'Profile');
        return { name: new_name, message: `Profile renamed to ${new_name}` } satisfies ProfileMutationResponse;
      },
    );

    api.post<{ Params: ConversationParams; Body: SwitchProfileRequest }>(
      '/app-conversations/:conversation_id/switch_profile',
      conversationRoute('Switch a running conversation’s LLM to one of the caller’s LLM profiles', {
        description:
          '404: no such conversation or profile of the caller; 409: its sandbox does not run, or its agent is in ' +
          'a run (pause it first); 410: its sandbox is gone; 502: its agent server failed.',
        params: ConversationParams,
        body: shape('SwitchProfileRequest'),
        response: { 200: 'SuccessResponse', 409: 'HTTPError', 410: 'HTTPError', 502: 'HTTPError' },
      }),
      async (request, reply) => {
        const id = idOf(request.params.conversation_id);
        const { userId } = principalOf(request);
        return upstream(reply, async () => {
          await switchConversationProfile(deps, userId, id, request.body.profile_name);
          return { success: true };
        });
      },
    );
  };
}
