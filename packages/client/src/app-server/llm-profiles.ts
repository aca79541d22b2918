import type {
  ActivateProfileResponse,
  ProfileDetailResponse,
  ProfileListResponse,
  ProfileMutationResponse,
  SaveProfileRequest,
  SuccessResponse,
} from '@bosun/protocol';
import type { CallOptions } from '../http.ts';
import { AppServerCatalog } from './catalog.ts';

/**
 * The caller's LLM profiles (named LLM configurations: saved, activated into the settings, renamed, deleted; a key
 * goes in, never out) and switching a running conversation to one. `AppServerClient` has them all.
 */
export abstract class AppServerLlmProfiles extends AppServerCatalog {
  listLlmProfiles(options?: CallOptions): Promise<ProfileListResponse> {
    return this.call('listLlmProfiles', options);
  }
  getLlmProfile(name: string, options?: CallOptions): Promise<ProfileDetailResponse> {
    return this.call('getLlmProfile', { ...options, params: { name } });
  }
  /** Saves `request.llm` under `name` (without it: a copy of the settings' LLM); 409 beyond 50 profiles. */
  saveLlmProfile(
    name: string,
    request: SaveProfileRequest = {},
    options?: CallOptions,
  ): Promise<ProfileMutationResponse> {
    return this.call('saveLlmProfile', { ...options, params: { name }, body: request });
  }
  deleteLlmProfile(name: string, options?: CallOptions): Promise<ProfileMutationResponse> {
    return this.call('deleteLlmProfile', { ...options, params: { name } });
  }
  /** The profile's LLM becomes the settings' (new conversations use it). */
  activateLlmProfile(name: string, options?: CallOptions): Promise<ActivateProfileResponse> {
    return this.call('activateLlmProfile', { ...options, params: { name } });
  }
  /** 409 when another profile of the caller has `newName`. */
  renameLlmProfile(name: string, newName: string, options?: CallOptions): Promise<ProfileMutationResponse> {
    return this.call('renameLlmProfile', { ...options, params: { name }, body: { new_name: newName } });
  }
  /** Switches a running conversation's LLM to the profile's (409 while its sandbox does not run, 410 once gone). */
  switchConversationProfile(
    conversationId: string,
    profileName: string,
    options?: CallOptions,
  ): Promise<SuccessResponse> {
    return this.call('switchConversationProfile', {
      ...options,
      params: { conversation_id: conversationId },
      body: { profile_name: profileName },
    });
  }
}
