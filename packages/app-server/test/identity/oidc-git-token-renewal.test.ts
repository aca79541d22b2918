import { afterAll, expect, it } from 'vitest';
import { hostAccount } from '../api/git-browse-world.ts';
import { Browser } from '../support/browser.ts';
import { startGitHost } from '../support/git-host.ts';
import { describeOidc } from './oidc-world.ts';

// A GitHub App's user tokens, as a sign-in through it brings them: they expire after 8 hours, and renew.
const host = await startGitHost();
afterAll(() => host.close());

describeOidc(
  'A sign-in’s Git token that expires',
  (world) => {
    it('keeps the refresh token and expiry GitHub gave (form-encoded), and renews the token 8 hours on', async () => {
      const { signIn, visit, account, repositories, logs } = world();
      const { accessToken, refreshToken } = host.oauth.issue(hostAccount('ada-app', 8100));
      const answer = `access_token=${accessToken}&expires_in=28800&refresh_token=${refreshToken}&refresh_token_expires_in=15811200&scope=&token_type=bearer`;
      const browser = new Browser();
      expect(
        (await signIn(browser, account({ brokerTokens: { github: answer } }), { query: '?provider=github' })).status,
      ).toBe(302);
      const userId = (await visit(browser, '/api/v1/users/me')).body.id as string;
      const { providerTokens } = repositories;
      const stored = await providerTokens.stored(userId, 'github');
      expect(stored).toMatchObject({ token: accessToken, refresh: { token: refreshToken } });
      const hours = (iso: string | null | undefined) => (Date.parse(iso ?? '') - Date.now()) / 3_600_000;
      expect(hours(stored?.expiresAt)).toBeGreaterThan(7.9);
      expect(hours(stored?.refresh?.expiresAt)).toBeGreaterThan(24 * 180);
      // 8 hours later: the token has expired; the next read renews it.
      await providerTokens.setFromSignIn(userId, 'github', {
        token: accessToken,
        host: null,
        source: stored?.source as string,
        refreshToken,
        expiresAt: new Date(Date.now() - 1000).toISOString(),
      });
      const grants = host.oauth.grants;
      const info = await visit(browser, '/api/v1/users/git-info');
      expect(info.body).toMatchObject({ provider: 'github', login: 'ada-app', token_set: true });
      expect(host.oauth.grants).toBe(grants + 1);
      expect((await providerTokens.token(userId, 'github'))?.token).not.toBe(accessToken);
      expect(logs.join('\n')).not.toContain(refreshToken);
    });
  },
  {
    config: {
      oidc_providers: ['github'],
      git_github_url: host.url,
      git_github_app_client_id: host.oauth.client.id,
      git_github_app_client_secret: host.oauth.client.secret,
    },
  },
);
