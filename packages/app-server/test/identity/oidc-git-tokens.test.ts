import { randomUUID } from 'node:crypto';
import { afterAll, expect, it } from 'vitest';
import { hostAccount } from '../api/git-browse-world.ts';
import { Browser } from '../support/browser.ts';
import { startGitHost } from '../support/git-host.ts';
import { type OidcWorld, describeOidc } from './oidc-world.ts';

// GitHub (Enterprise's API: git_github_url) and a GitLab at its own host, as the tokens of the sign-ins reach them.
const host = await startGitHost();
afterAll(() => host.close());

const GIT_INFO = '/api/v1/users/git-info';
const github = { query: '?provider=github' };

/** A token the Git host stand-in knows, as the account `login`. */
function hostToken(login: string): string {
  const token = `gho_${randomUUID().replaceAll('-', '')}`;
  host.accounts.set(token, hostAccount(login, 4000 + host.accounts.size * 10));
  return token;
}

/** GitHub's token response as Keycloak stores it (form-encoded), and an OpenID Connect provider's (JSON). */
const githubAnswer = (token: string) => `access_token=${token}&scope=repo%2Cread%3Aorg&token_type=bearer`;
const jsonAnswer = (token: string) =>
  JSON.stringify({ access_token: token, token_type: 'Bearer', expires_in: 7200, refresh_token: `r-${token}` });

async function userIdOf(world: OidcWorld, browser: Browser): Promise<string> {
  return (await world.visit(browser, '/api/v1/users/me')).body.id;
}

describeOidc(
  'Git provider tokens a sign-in through an identity provider brings',
  (world) => {
    it('stores the GitHub token of a sign-in through github: Git browsing works with it at once', async () => {
      const { issuer, signIn, visit, account, repositories, logs } = world();
      const token = hostToken('ada-gh');
      const ada = account({ brokerTokens: { github: githubAnswer(token) } });
      const browser = new Browser();
      const asked = issuer.brokerRequests.length;
      expect((await signIn(browser, ada, github)).status).toBe(302);
      expect(issuer.brokerRequests.slice(asked)).toEqual([{ alias: 'github', authorized: true }]);
      const info = await visit(browser, GIT_INFO);
      expect(info.status, JSON.stringify(info.body)).toBe(200);
      expect(info.body).toMatchObject({ provider: 'github', host: null, login: 'ada-gh', token_set: true });
      const repositoriesFound = await visit(browser, '/api/v1/git/repositories/search?provider=github');
      expect(repositoriesFound.status).toBe(200);
      expect(JSON.stringify(repositoriesFound.body)).toContain('ada-gh/alpha');
      expect(host.requests.some((request) => request.credential === token)).toBe(true);
      const userId = await userIdOf(world(), browser);
      expect(await repositories.providerTokens.token(userId, 'github')).toEqual({ token, host: null });
      for (const text of [JSON.stringify(info.body), JSON.stringify(repositoriesFound.body), logs.join('\n')]) {
        expect(text).not.toContain(token);
      }
    });

    it('stores the token of a mapped identity provider (JSON answer) as its provider, with its host', async () => {
      const { signIn, visit, account, logs } = world();
      const token = hostToken('ada-gl');
      const browser = new Browser();
      const ada = account({ brokerTokens: { 'corp-gitlab': jsonAnswer(token) } });
      expect((await signIn(browser, ada, { query: '?provider=corp-gitlab' })).status).toBe(302);
      const info = await visit(browser, GIT_INFO);
      expect(info.body).toMatchObject({ provider: 'gitlab', host: host.url, login: 'ada-gl', token_set: true });
      expect(logs.join('\n')).not.toContain(token);
    });

    it('signs in when the token cannot be read, logs why without it, and the person can store one by hand', async () => {
      const { issuer, signIn, visit, account, logs } = world();
      const browser = new Browser();
      const ada = account();
      expect((await signIn(browser, ada, github)).status).toBe(302);
      expect((await visit(browser, '/api/v1/users/me')).status).toBe(200);
      expect((await visit(browser, GIT_INFO)).status).toBe(403);
      expect(logs.some((line) => line.includes('was not read') && line.includes('HTTP 400'))).toBe(true);
      const token = hostToken('ada-by-hand');
      const stored = await visit(browser, '/api/v1/secrets/git-providers', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ provider_tokens: { github: { token } } }),
      });
      expect(stored.status).toBe(200);
      expect((await visit(browser, GIT_INFO)).body.login).toBe('ada-by-hand');

      // An answer without a token, or too large to be one: the same.
      for (const answer of ['error=bad_verification_code', `access_token=${'x'.repeat(70_000)}`]) {
        const lines = logs.length;
        expect((await signIn(new Browser(), account({ brokerTokens: { github: answer } }), github)).status).toBe(302);
        expect(logs.slice(lines).some((line) => line.includes('answered no access_token'))).toBe(true);
      }

      // No identity provider, or one that is no Git provider: the issuer is not asked.
      const asked = issuer.brokerRequests.length;
      const other = account({ brokerTokens: { github: githubAnswer(hostToken('x')) } });
      expect((await signIn(new Browser(), other)).status).toBe(302);
      expect((await signIn(new Browser(), other, { query: '?provider=google' })).status).toBe(302);
      expect(issuer.brokerRequests.length).toBe(asked);
    });

    it('refreshes the token its login identity stored, never one stored by hand or by another identity', async () => {
      const { signIn, visit, account, repositories, logs } = world();
      const first = hostToken('ada');
      const ada = account({ brokerTokens: { github: githubAnswer(first) } });
      const browser = new Browser();
      await signIn(browser, ada, github);
      const userId = await userIdOf(world(), browser);
      const tokenOf = async () => (await repositories.providerTokens.token(userId, 'github'))?.token;
      expect(await tokenOf()).toBe(first);
      const second = hostToken('ada');
      await signIn(
        new Browser(),
        { ...ada, brokerTokens: { github: githubAnswer(second) } },
        { query: '?provider=github' },
      );
      expect(await tokenOf()).toBe(second);
      // Another account at the issuer with the same verified address signs in the same user: it keeps Ada's token.
      const twin = account({ email: ada.email, brokerTokens: { github: githubAnswer(hostToken('twin')) } });
      const twinBrowser = new Browser();
      await signIn(twinBrowser, twin, github);
      expect(await userIdOf(world(), twinBrowser)).toBe(userId);
      expect(await tokenOf()).toBe(second);
      // A token the person stores by hand stays theirs.
      const byHand = hostToken('ada-bot');
      await visit(browser, '/api/v1/secrets/git-providers', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ provider_tokens: { github: { token: byHand } } }),
      });
      await signIn(
        new Browser(),
        { ...ada, brokerTokens: { github: githubAnswer(hostToken('ada')) } },
        { query: '?provider=github' },
      );
      expect(await tokenOf()).toBe(byHand);
      expect(logs.some((line) => line.includes('the user keeps the one they stored'))).toBe(true);
    });

    it('the stand-in broker endpoint refuses a request without the issuer’s access token', async () => {
      const { issuer } = world();
      for (const authorization of [undefined, 'Bearer forged-access-token']) {
        const answer = await fetch(`${issuer.url}/broker/github/token`, {
          headers: authorization ? { authorization } : {},
        });
        expect(answer.status).toBe(401);
      }
      expect(issuer.brokerRequests.slice(-2)).toEqual([
        { alias: 'github', authorized: false },
        { alias: 'github', authorized: false },
      ]);
    });
  },
  {
    config: {
      oidc_providers: ['github', 'corp-gitlab', 'google'],
      oidc_git_providers: [`corp-gitlab=gitlab@${host.url}`],
      git_github_url: host.url,
      git_allow_private_hosts: true,
    },
  },
);
