import { expect, it } from 'vitest';
import { gitHostOfFile } from '../support/git-host.ts';
import { connect, hostAccount } from './git-browse-world.ts';
import { type TestUser, describeApi } from './harness.ts';

const host = await gitHostOfFile();
const REPOSITORIES = '/api/v1/git/repositories/search?provider=github';
const tokenRequests = () => host.requests.filter(({ path }) => path === '/login/oauth/access_token').length;

describeApi(
  'Git browsing with a sign-in’s token that expired',
  (api) => {
    /** A user whose sign-in stored a GitHub token that expired a minute ago, and its refresh token. */
    const signedIn = async (who: string): Promise<TestUser & { refreshToken: string }> => {
      const user = await api().user();
      const { accessToken, refreshToken } = host.oauth.issue(hostAccount(who, 5000 + host.accounts.size * 10));
      await api().repositories.providerTokens.setFromSignIn(user.id, 'github', {
        token: accessToken,
        host: null,
        source: 'sign-in:test',
        refreshToken,
        expiresAt: new Date(Date.now() - 60_000).toISOString(),
      });
      return { ...user, refreshToken };
    };

    it('renews it on the next browse and answers with the new one, which the provider takes', async () => {
      const ada = await signedIn('ada');
      const asked = tokenRequests();
      const found = await api().call(REPOSITORIES, { as: ada });
      expect(found.status, found.text).toBe(200);
      expect(found.text).toContain('ada/alpha');
      expect(tokenRequests()).toBe(asked + 1);
      const renewed = await api().repositories.providerTokens.token(ada.id, 'github');
      expect(host.requests.at(-1)?.credential).toBe(renewed?.token);
      expect((await api().call(REPOSITORIES, { as: ada })).status).toBe(200);
      expect(tokenRequests()).toBe(asked + 1);
      const stored = await api().repositories.providerTokens.stored(ada.id, 'github');
      const said = `${found.text}\n${api().logs.join('\n')}`;
      for (const secret of [renewed?.token, ada.refreshToken, stored?.refresh?.token, host.oauth.client.secret]) {
        expect(said).not.toContain(secret);
      }
    });

    it('a refused refresh token: 401 saying to sign in again, without asking the provider again', async () => {
      const grace = await signedIn('grace');
      host.oauth.live.delete(grace.refreshToken);
      const asked = tokenRequests();
      for (const route of [REPOSITORIES, '/api/v1/users/git-organizations', '/api/v1/git/suggested-tasks/search']) {
        const refused = await api().call(route, { as: grace });
        expect(refused.status, route).toBe(401);
        expect(refused.body.detail).toMatch(/github token of your sign-in expired .*sign in again/);
      }
      expect(tokenRequests()).toBe(asked + 1);
      const info = await api().call('/api/v1/users/git-info', { as: grace });
      expect(info.status).toBe(200);
      expect(info.body).toMatchObject({ provider: 'github', token_set: true, login: null });
      // Storing a token by hand (or signing in again) ends it.
      host.accounts.set('ghp-grace-by-hand', hostAccount('grace', 6000));
      await connect(api(), grace, { github: { token: 'ghp-grace-by-hand' } });
      expect((await api().call(REPOSITORIES, { as: grace })).status).toBe(200);
      expect(tokenRequests()).toBe(asked + 1);
      expect(api().logs.join('\n')).not.toContain(grace.refreshToken);
    });
  },
  {
    config: {
      git_github_url: host.url,
      git_github_app_client_id: host.oauth.client.id,
      git_github_app_client_secret: host.oauth.client.secret,
    },
  },
);
