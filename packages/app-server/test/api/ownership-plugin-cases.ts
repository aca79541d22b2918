import { expect } from 'vitest';
import type { Api } from './harness.ts';
import { type Owned, type WrongUserCase, as, strangerCalls } from './ownership-support.ts';

const SOURCE = 'github:acme/owner-trusted';

/** The owner's confirmation of SOURCE (made once), that the stranger must neither see nor revoke. */
async function ownerTrust(api: Api, { owner }: Owned): Promise<string> {
  const made = await api.call('/api/v1/plugin-trust', {
    method: 'POST',
    ...as(owner),
    body: { source: SOURCE, commit: null },
  });
  expect(made.status).toBe(200);
  return made.body.id;
}

async function ownerTrustUnchanged(api: Api, owned: Owned) {
  const { items } = (await api.call('/api/v1/plugin-trust', as(owned.owner))).body;
  expect(items).toEqual([expect.objectContaining({ source: SOURCE, commit: null })]);
}

/** The directory is the instance's (the same for everyone); trust confirmations are each user's own. */
export const PLUGIN_CASES: Record<string, WrongUserCase> = {
  'GET /api/v1/plugin-directory/plugins': {
    expected: 'own',
    attempt: strangerCalls(),
  },
  'GET /api/v1/plugin-directory/featured': {
    expected: 'own',
    attempt: strangerCalls(),
  },
  'GET /api/v1/plugin-directory/plugins/{plugin_id}': {
    expected: 404,
    attempt: (api, { stranger }) => api.call('/api/v1/plugin-directory/plugins/none', as(stranger)),
  },
  'GET /api/v1/plugin-directory/plugins/{plugin_id}/config': {
    expected: 404,
    attempt: (api, { stranger }) => api.call('/api/v1/plugin-directory/plugins/none/config', as(stranger)),
  },
  'POST /api/v1/plugin-directory/refresh': {
    // Only the instance owner refreshes; the test users are not.
    expected: 403,
    attempt: strangerCalls(),
  },
  'GET /api/v1/plugin-trust': {
    expected: 'own',
    attempt: async (api, owned) => {
      await ownerTrust(api, owned);
      const answer = await api.call('/api/v1/plugin-trust', as(owned.stranger));
      expect(answer.body.items).toEqual([]);
      return answer;
    },
    unchanged: ownerTrustUnchanged,
  },
  'POST /api/v1/plugin-trust': {
    expected: 'own',
    attempt: strangerCalls({ source: 'github:x/y', commit: null }),
  },
  'DELETE /api/v1/plugin-trust/{trust_id}': {
    expected: 404,
    attempt: async (api, owned) =>
      api.call(`/api/v1/plugin-trust/${await ownerTrust(api, owned)}`, { method: 'DELETE', ...as(owned.stranger) }),
    unchanged: ownerTrustUnchanged,
  },
};
