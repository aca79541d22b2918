import type { Operation } from '../../agent-server/operations.ts';

const PROFILE = '/api/v1/settings/profiles/{name}';

/** The routes of the caller's LLM profiles and of switching a conversation to one. */
export const LLM_PROFILE_OPERATIONS = {
  listLlmProfiles: { method: 'GET', path: '/api/v1/settings/profiles' },
  getLlmProfile: { method: 'GET', path: PROFILE },
  saveLlmProfile: { method: 'POST', path: PROFILE, body: true },
  deleteLlmProfile: { method: 'DELETE', path: PROFILE },
  activateLlmProfile: { method: 'POST', path: `${PROFILE}/activate` },
  renameLlmProfile: { method: 'POST', path: `${PROFILE}/rename`, body: true },
  switchConversationProfile: {
    method: 'POST',
    path: '/api/v1/app-conversations/{conversation_id}/switch_profile',
    body: true,
  },
} as const satisfies Record<string, Operation>;
