import { expect } from 'vitest';
import type { Api } from './harness.ts';
import { type Owned, type WrongUserCase, as } from './ownership-support.ts';

const OWNER_TOKEN = 'ghp-owner-ownership';

/** The stranger calls `path` after the owner connected GitHub: the owner's token is never theirs (403, none stored). */
const afterOwnerConnected = (path: string) => async (api: Api, owned: Owned) => {
  const stored = await api.call('/api/v1/secrets/git-providers', {
    method: 'POST',
    ...as(owned.owner),
    body: { provider_tokens: { github: { token: OWNER_TOKEN } } },
  });
  expect(stored.status).toBe(200);
  const answer = await api.call(path, as(owned.stranger));
  expect(answer.body).toEqual({ detail: expect.stringMatching(/No (github token|Git provider)/) });
  return answer;
};

const ownerStillConnected = async (api: Api, { owner }: Owned) => {
  expect(await api.repositories.providerTokens.token(owner.id, 'github')).toEqual({ token: OWNER_TOKEN, host: null });
};

const gitCase = (path: string): WrongUserCase => ({
  expected: 403,
  attempt: afterOwnerConnected(path),
  unchanged: ownerStillConnected,
});

/** Browsing a Git provider reads the caller's own token: another user's connection gives the stranger nothing. */
export const GIT_CASES: Record<string, WrongUserCase> = {
  'GET /api/v1/git/repositories/search': gitCase('/api/v1/git/repositories/search?provider=github'),
  'GET /api/v1/git/branches/search': gitCase(
    '/api/v1/git/branches/search?provider=github&repository=owner/repo&query=',
  ),
  'GET /api/v1/git/installations/search': gitCase('/api/v1/git/installations/search?provider=github'),
  'GET /api/v1/git/suggested-tasks/search': gitCase('/api/v1/git/suggested-tasks/search'),
  'GET /api/v1/users/git-organizations': gitCase('/api/v1/users/git-organizations'),
  // The GitHub App's webhook is no user's: signed with the app's webhook secret only (none configured here: 404).
  'POST /api/v1/git/github/app-webhook': {
    expected: 404,
    attempt: (api, owned) =>
      api.call('/api/v1/git/github/app-webhook', {
        method: 'POST',
        ...as(owned.stranger),
        body: { action: 'deleted', installation: { id: 1 } },
      }),
  },
};
