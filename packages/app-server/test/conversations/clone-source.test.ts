import { afterAll, beforeAll, expect, it } from 'vitest';
import type { AppServerConfig } from '../../src/index.ts';
import { type TestUser, describeApi } from '../api/harness.ts';
import { type CloneHost, basic, cloneHost } from '../support/git-host-clone.ts';
import { streamStart } from './support.ts';

const GHE_TOKEN = 'ghe_enterprise-token';
const APP_PASSWORD = 'alice:bb-app-password';
const DC_TOKEN = 'bbdc-http-access-token';
const DC_USER_TOKEN = 'carol:bbdc-user-token';

/**
 * Two Git hosts on loopback: `own` is where the tokens were stored (GitHub Enterprise, Bitbucket Data Center),
 * `configured` the app's `git_github_url` and `git_bitbucket_url`. Both serve the same repositories to the same
 * credentials, so a clone asking the wrong one would succeed there: only their request logs tell.
 */
let own: CloneHost;
let configured: CloneHost;
const options = { config: {} as Partial<AppServerConfig> };
const guarded = { config: {} as Partial<AppServerConfig> };
beforeAll(async () => {
  const repositories = ['acme/enterprise', 'acme/second', 'ws/app', 'scm/PROJ/repo', 'scm/PROJ/other'];
  const accepted = [
    basic('x-access-token', GHE_TOKEN),
    basic('alice', 'bb-app-password'),
    `Bearer ${DC_TOKEN}`,
    basic('carol', 'bbdc-user-token'),
  ];
  own = await cloneHost(repositories, accepted);
  configured = await cloneHost(repositories, accepted);
  guarded.config = { git_github_url: configured.url, git_bitbucket_url: configured.url };
  options.config = { ...guarded.config, git_allow_private_hosts: true };
});
afterAll(async () => {
  await own?.close();
  await configured?.close();
});

const asked = (host: CloneHost, repository: string) =>
  host.requests.filter((request) => request.path.startsWith(`/${repository}.git/`));

describeApi(
  'a clone asks the Git host the token was stored for, with the credentials that host takes',
  (api) => {
    let user: TestUser;
    const store = (provider_tokens: object) =>
      api().call('/api/v1/secrets/git-providers', { method: 'POST', as: user, body: { provider_tokens } });
    beforeAll(async () => {
      user = await api().user({ llm_model: 'test-model' });
    });

    it('clones a GitHub Enterprise repository from the token’s host only, never the configured github', async () => {
      await store({ github: { token: GHE_TOKEN, host: own.url } });
      const before = configured.requests.length;
      const cloned = await streamStart(api(), user, { selected_repository: 'acme/enterprise', git_provider: 'github' });
      expect(cloned.last, cloned.text).toMatchObject({ status: 'READY' });
      expect(asked(own, 'acme/enterprise').some((r) => r.authorization === basic('x-access-token', GHE_TOKEN))).toBe(
        true,
      );
      expect(configured.requests.slice(before)).toEqual([]);
      // Nor are skills repositories looked for at the configured github with it.
      expect(cloned.last.problems).toContainEqual(
        expect.stringMatching(/^skills repositories of github: not looked for: your token is for /),
      );
      for (const text of [cloned.text, api().logs.join('\n')]) expect(text).not.toContain(GHE_TOKEN);
    });

    it('clones Bitbucket Cloud with an app password (`user:app_password`) as those two', async () => {
      await store({ bitbucket: { token: APP_PASSWORD } });
      const cloned = await streamStart(api(), user, { selected_repository: 'ws/app', git_provider: 'bitbucket' });
      expect(cloned.last, cloned.text).toMatchObject({ status: 'READY' });
      expect(asked(configured, 'ws/app').some((r) => r.authorization === basic('alice', 'bb-app-password'))).toBe(true);
      expect(asked(own, 'ws/app')).toEqual([]);
      for (const text of [cloned.text, api().logs.join('\n')]) expect(text).not.toContain('bb-app-password');
    });

    it('clones Bitbucket Data Center from its host’s /scm/ path: an HTTP access token as Bearer, `user:token` as Basic', async () => {
      await store({ bitbucket_data_center: { token: DC_TOKEN, host: own.url } });
      const bearer = await streamStart(api(), user, {
        selected_repository: 'PROJ/repo',
        git_provider: 'bitbucket_data_center',
      });
      expect(bearer.last, bearer.text).toMatchObject({ status: 'READY' });
      expect(asked(own, 'scm/PROJ/repo').some((r) => r.authorization === `Bearer ${DC_TOKEN}`)).toBe(true);

      await store({ bitbucket_data_center: { token: DC_USER_TOKEN, host: own.url } });
      const user_token = await streamStart(api(), user, {
        sandbox_id: bearer.last.sandbox_id,
        selected_repository: 'PROJ/other',
        git_provider: 'bitbucket_data_center',
      });
      expect(user_token.last, user_token.text).toMatchObject({ status: 'READY' });
      expect(asked(own, 'scm/PROJ/other').some((r) => r.authorization === basic('carol', 'bbdc-user-token'))).toBe(
        true,
      );
      expect([...asked(configured, 'scm/PROJ/repo'), ...asked(configured, 'scm/PROJ/other')]).toEqual([]);
      for (const text of [bearer.text, user_token.text, api().logs.join('\n')]) {
        expect(text).not.toContain(DC_TOKEN);
        expect(text).not.toContain('bbdc-user-token');
      }
    });
  },
  options,
);

describeApi(
  'a clone from a token’s own host goes through the address guard of the browsing',
  (api) => {
    it('does not clone from a token host at an internal address (no git_allow_private_hosts): no host is asked', async () => {
      const user = await api().user({ llm_model: 'test-model' });
      await api().call('/api/v1/secrets/git-providers', {
        method: 'POST',
        as: user,
        body: { provider_tokens: { github: { token: GHE_TOKEN, host: own.url } } },
      });
      const [ownBefore, configuredBefore] = [own.requests.length, configured.requests.length];
      const refused = await streamStart(api(), user, { selected_repository: 'acme/second', git_provider: 'github' });
      expect(refused.last.status).toBe('ERROR');
      expect(refused.last.detail).toMatch(/internal address.*git_allow_private_hosts/);
      expect(own.requests.slice(ownBefore)).toEqual([]);
      expect(configured.requests.slice(configuredBefore)).toEqual([]);
      expect(`${refused.text}${api().logs.join('\n')}`).not.toContain(GHE_TOKEN);
    });
  },
  guarded,
);
