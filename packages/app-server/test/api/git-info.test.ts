import { afterAll, expect, it } from 'vitest';
import { startGitHost } from '../support/git-host.ts';
import { describeApi } from './harness.ts';

// The tokens below are unknown to the stand-in host: the account's fields stay null.
const host = await startGitHost();
afterAll(() => host.close());

const GIT_INFO = '/api/v1/users/git-info';

describeApi(
  'the caller’s Git account (users/git-info)',
  (api) => {
    const storeTokens = (user: Awaited<ReturnType<ReturnType<typeof api>['user']>>, provider_tokens: object) =>
      api().call('/api/v1/secrets/git-providers', { method: 'POST', as: user, body: { provider_tokens } });

    it('is a 403 {detail} until a provider is connected, then the provider and host the app stores', async () => {
      const [user, other] = await api().users(2);
      const none = await api().call(GIT_INFO, { as: user });
      expect(none.status).toBe(403);
      expect(none.body).toEqual({ detail: expect.stringMatching(/No Git provider/) });

      expect(
        (await storeTokens(user, { gitlab: { token: 'glpat-secret-1', host: 'gitlab.example.test' } })).status,
      ).toBe(200);
      const gitlab = await api().call(GIT_INFO, { as: user });
      expect(gitlab.status, gitlab.text).toBe(200);
      expect(gitlab.body).toEqual({
        id: null,
        login: null,
        avatar_url: null,
        company: null,
        name: null,
        email: null,
        provider: 'gitlab',
        host: 'gitlab.example.test',
        token_set: true,
      });
      expect(gitlab.text).not.toContain('glpat-secret-1');

      // Several providers: the first in ProviderType's order (GitHub before GitLab), whatever the names' order.
      await storeTokens(user, { github: { token: 'ghp-secret-2' }, bitbucket: { token: 'bb-secret-3' } });
      const github = await api().call(GIT_INFO, { as: user });
      expect(github.body).toMatchObject({ provider: 'github', host: null, token_set: true });
      expect(github.text).not.toMatch(/secret-/);

      // Another user's tokens are not theirs.
      expect((await api().call(GIT_INFO, { as: other })).status).toBe(403);
      await api().call('/api/v1/secrets/git-providers', { method: 'DELETE', as: user });
      expect((await api().call(GIT_INFO, { as: user })).status).toBe(403);
    });

    it('requires a credential', async () => {
      expect((await api().call(GIT_INFO)).status).toBe(401);
    });
  },
  { config: { git_github_url: host.url, git_gitlab_url: host.url } },
);
