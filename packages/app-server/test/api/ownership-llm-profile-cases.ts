import { expect } from 'vitest';
import type { Api } from './harness.ts';
import { type Owned, type WrongUserCase, as, conversationUnchanged } from './ownership-support.ts';

const NAME = 'owner-profile';
const PROFILE = `/api/v1/settings/profiles/${NAME}`;
const KEY = 'owner-value';

/** The owner's profile (their model, a key), saved again before each case: the stranger must not reach it. */
async function ownerProfile(api: Api, { owner, model }: Owned): Promise<void> {
  const saved = await api.call(PROFILE, { method: 'POST', ...as(owner), body: { llm: { model, api_key: KEY } } });
  expect(saved.status).toBe(201);
}

async function ownerProfileUnchanged(api: Api, { owner, model }: Owned) {
  expect(await api.repositories.llmProfiles.get(owner.id, NAME)).toMatchObject({ model, api_key: KEY, active: false });
  expect((await api.call('/api/v1/settings', as(owner))).body.llm_model).toBe(model);
}

/** The stranger calls `path` (under the owner's profile) with `body`, after the owner saved it. */
const onOwnerProfile =
  (method: string, path = '', body?: unknown) =>
  async (api: Api, owned: Owned) => {
    await ownerProfile(api, owned);
    return api.call(`${PROFILE}${path}`, { method, ...as(owned.stranger), body });
  };

/** LLM profiles are each user's own, by name: another user's name is as unknown as a name nobody has. */
export const LLM_PROFILE_CASES: Record<string, WrongUserCase> = {
  'GET /api/v1/settings/profiles': {
    expected: 'own',
    attempt: async (api, owned) => {
      await ownerProfile(api, owned);
      const answer = await api.call('/api/v1/settings/profiles', as(owned.stranger));
      expect(answer.body).toEqual({ profiles: [], active_profile: null });
      return answer;
    },
    unchanged: ownerProfileUnchanged,
  },
  'GET /api/v1/settings/profiles/{name}': {
    expected: 404,
    attempt: onOwnerProfile('GET'),
    unchanged: ownerProfileUnchanged,
  },
  'POST /api/v1/settings/profiles/{name}': {
    // The same name is another user's own profile (no conflict, which would tell the name exists). A user of its
    // own: the stranger keeps no profile of the owner's name for the other cases.
    expected: 'own',
    attempt: async (api, owned) => {
      await ownerProfile(api, owned);
      const body = { llm: { model: 'stranger/model', api_key: 'stranger-key' } };
      return api.call(PROFILE, { method: 'POST', ...as(await api.user()), body });
    },
    unchanged: ownerProfileUnchanged,
  },
  'DELETE /api/v1/settings/profiles/{name}': {
    expected: 404,
    attempt: onOwnerProfile('DELETE'),
    unchanged: ownerProfileUnchanged,
  },
  'POST /api/v1/settings/profiles/{name}/activate': {
    expected: 404,
    attempt: onOwnerProfile('POST', '/activate'),
    unchanged: ownerProfileUnchanged,
  },
  'POST /api/v1/settings/profiles/{name}/rename': {
    expected: 404,
    attempt: onOwnerProfile('POST', '/rename', { new_name: 'taken-over' }),
    unchanged: ownerProfileUnchanged,
  },
  'POST /api/v1/app-conversations/{conversation_id}/switch_profile': {
    // With a profile of the stranger's own: the conversation is what they cannot reach.
    expected: 404,
    attempt: async (api, { stranger, conversationId }) => {
      const body = { llm: { model: 'stranger/model' } };
      expect((await api.call('/api/v1/settings/profiles/mine', { method: 'POST', ...as(stranger), body })).status).toBe(
        201,
      );
      return api.call(`/api/v1/app-conversations/${conversationId}/switch_profile`, {
        method: 'POST',
        ...as(stranger),
        body: { profile_name: 'mine' },
      });
    },
    unchanged: conversationUnchanged,
  },
};
