import { expect } from 'vitest';
import type { Api } from './harness.ts';
import { type Owned, type WrongUserCase, as, strangerCalls } from './ownership-support.ts';

async function ownerAlone(api: Api, { owner, orgId }: Owned) {
  const members = await api.call(`/api/v1/organizations/${orgId}/members`, as(owner));
  expect(members.body.items).toEqual([expect.objectContaining({ user_id: owner.id, role: 'owner' })]);
}

/** The owner's organization, its name and its sole member as they were made. */
async function orgUnchanged(api: Api, owned: Owned) {
  const org = await api.call(`/api/v1/organizations/${owned.orgId}`, as(owned.owner));
  expect(org.body).toMatchObject({ name: owned.orgName, role: 'owner' });
  await ownerAlone(api, owned);
}

/** Organizations: another user neither reads nor changes the owner's organization (the 404 of an unknown one). */
export const ORGANIZATION_CASES: Record<string, WrongUserCase> = {
  'GET /api/v1/organizations': {
    expected: 'own',
    attempt: strangerCalls(),
  },
  'POST /api/v1/organizations': {
    expected: 'own',
    attempt: strangerCalls({ name: 'Theirs' }),
  },
  'GET /api/v1/organizations/{org_id}': {
    expected: 404,
    attempt: strangerCalls(),
  },
  'PATCH /api/v1/organizations/{org_id}': {
    expected: 404,
    attempt: strangerCalls({ name: 'Taken over' }),
    unchanged: orgUnchanged,
  },
  'DELETE /api/v1/organizations/{org_id}': {
    expected: 404,
    attempt: strangerCalls(),
    unchanged: orgUnchanged,
  },
  'GET /api/v1/organizations/{org_id}/me': {
    expected: 404,
    attempt: strangerCalls(),
  },
  'GET /api/v1/organizations/{org_id}/members': {
    expected: 404,
    attempt: strangerCalls(),
  },
  'GET /api/v1/organizations/{org_id}/members/count': {
    expected: 404,
    attempt: strangerCalls(),
  },
  'POST /api/v1/organizations/{org_id}/members': {
    expected: 404,
    attempt: (api, { stranger, orgId }) =>
      api.call(`/api/v1/organizations/${orgId}/members`, {
        method: 'POST',
        ...as(stranger),
        body: { user_id: stranger.id, role: 'owner' },
      }),
    unchanged: ownerAlone,
  },
  'PATCH /api/v1/organizations/{org_id}/members/{user_id}': {
    expected: 404,
    attempt: strangerCalls({ role: 'member' }),
    unchanged: ownerAlone,
  },
  'DELETE /api/v1/organizations/{org_id}/members/{user_id}': {
    expected: 404,
    attempt: strangerCalls(),
    unchanged: ownerAlone,
  },
  'POST /api/v1/organizations/{org_id}/leave': {
    expected: 404,
    attempt: strangerCalls(),
    unchanged: ownerAlone,
  },
};
