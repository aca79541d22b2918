import { expect } from 'vitest';
import type { Api } from './harness.ts';
import { type Attempt, type Owned, type WrongUserCase, as, strangerCalls } from './ownership-support.ts';

const NAME = 'owners-market';

/** The owner's organization entry and personal entry of the same name (made once, by the first case to run). */
export async function ownersEntries(api: Api, { owner, orgId }: Owned) {
  const { marketplaces } = api.repositories;
  const entry = {
    name: NAME,
    source: 'github:owner/market',
    ref: null,
    repo_path: null,
    auto_load: true,
    updates: 'review' as const,
    approved_ref: 'a'.repeat(40),
  };
  if (!(await marketplaces.get({ scope: 'personal', userId: owner.id }, NAME))) {
    await marketplaces.create({ scope: 'personal', userId: owner.id }, { ...entry, registeredBy: owner.id });
    await marketplaces.create({ scope: 'organization', orgId }, { ...entry, registeredBy: owner.id });
  }
}

async function entriesUnchanged(api: Api, { owner, orgId }: Owned) {
  const { marketplaces } = api.repositories;
  for (const row of [
    await marketplaces.get({ scope: 'personal', userId: owner.id }, NAME),
    await marketplaces.get({ scope: 'organization', orgId }, NAME),
  ]) {
    expect(row).toMatchObject({ auto_load: 1, source: 'github:owner/market' });
  }
}

/**
 * The stranger calls the case's route on the owner's entry of each scope, with the bodies given: the personal entry
 * must answer 404; the organization's (`org_id` and `query` added) is the case's answer.
 */
const inBothScopes =
  (personal: unknown, organization: { body?: unknown; query?: string }): Attempt =>
  async (api, owned, route) => {
    await ownersEntries(api, owned);
    const [method, template] = route.split(' ') as [string, string];
    const call = (scope: string, query: string, body: unknown) =>
      api.call(`${template.replace('{scope}', scope).replace('{name}', NAME)}${query}`, {
        method,
        ...as(owned.stranger),
        body,
      });
    const answer = await call('personal', '', personal);
    expect(answer.status).toBe(404);
    return call('organization', `?org_id=${owned.orgId}${organization.query ?? ''}`, organization.body);
  };

const approval = { approved_ref: 'b'.repeat(40), expected_version: '1' };

/** Marketplaces: another user neither reads nor writes the owner's (nor their organization's) registrations. */
export const MARKETPLACE_CASES: Record<string, WrongUserCase> = {
  'GET /api/v1/marketplaces': {
    expected: 404,
    attempt: async (api, owned) => {
      await ownersEntries(api, owned);
      const own = await api.call('/api/v1/marketplaces', as(owned.stranger));
      expect(own.status).toBe(200);
      expect(own.text).not.toContain(NAME);
      return api.call(`/api/v1/marketplaces?org_id=${owned.orgId}`, as(owned.stranger));
    },
  },
  'POST /api/v1/marketplaces': {
    expected: 404,
    attempt: async (api, owned) => {
      await ownersEntries(api, owned);
      return api.call('/api/v1/marketplaces', {
        method: 'POST',
        ...as(owned.stranger),
        body: {
          source: 'github:x/y',
          name: 'theirs',
          scope: 'organization',
          org_id: owned.orgId,
          expected_version: '1',
        },
      });
    },
    unchanged: async (api, owned) => {
      await entriesUnchanged(api, owned);
      expect(await api.repositories.marketplaces.get({ scope: 'organization', orgId: owned.orgId }, 'theirs')).toBe(
        undefined,
      );
    },
  },
  'PATCH /api/v1/marketplaces/{scope}/{name}': {
    expected: 404,
    attempt: inBothScopes({ auto_load: false }, { body: { auto_load: false, expected_version: '1' } }),
    unchanged: entriesUnchanged,
  },
  'DELETE /api/v1/marketplaces/{scope}/{name}': {
    expected: 404,
    attempt: inBothScopes(undefined, { query: '&expected_version=1' }),
    unchanged: entriesUnchanged,
  },
  'POST /api/v1/marketplaces/{scope}/{name}/approve': {
    expected: 404,
    attempt: inBothScopes(approval, { body: approval }),
    unchanged: async (api, owned) => {
      await entriesUnchanged(api, owned);
      const row = await api.repositories.marketplaces.get({ scope: 'personal', userId: owned.owner.id }, NAME);
      expect(row?.approved_ref).toBe('a'.repeat(40));
    },
  },
  'GET /api/v1/skills-and-plugins': {
    expected: 404,
    attempt: async (api, owned) => {
      await ownersEntries(api, owned);
      return api.call(`/api/v1/skills-and-plugins?org_id=${owned.orgId}`, as(owned.stranger));
    },
  },
  // A preview reads no one's data and fetches with the caller's own tokens only; here a bad path stops it early.
  'POST /api/v1/skills/marketplace-skills': {
    expected: 422,
    attempt: strangerCalls({ source: 'github:owner/market', repo_path: '../escape' }),
  },
};
