import { AppServerClient, waitForStartTask } from '@bosun/client';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { AppServerConfig } from '../../src/index.ts';
import { type TestUser, describeApi } from '../api/harness.ts';
import { type AppStandIn, appStandIn } from '../support/git-host-app.ts';
import { signedWebhook } from '../support/github-webhook.ts';
import { type SkillHost, skillHost } from '../support/skill-host.ts';
import { readyStart } from './support.ts';

const ALICE = 'ghp_alice-cannot-read-org-skills';
const APP_ID = '424242';
const WEBHOOK_SECRET = 'webhook-secret-of-the-test-app';
const HOUR = 60 * 60_000;

const skill = (name: string, body: string) => `---\nname: ${name}\ndescription: ${body}\n---\n${body}\n`;

/**
 * GitHub on loopback with a GitHub App installed on three organizations: `acme` (installation 1) and `orgb` (2),
 * both alice's, and `other` (3), which she is no member of. Each has a `.agents` her own token cannot read (a
 * fine-grained token without them, say): only the app's installation tokens can.
 */
let github: SkillHost;
let app: AppStandIn;
const options = { config: {} as Partial<AppServerConfig> };
beforeAll(async () => {
  const readme = { 'README.md': 'app\n' };
  app = appStandIn(APP_ID, [
    { id: 1, account: 'acme', repositories: ['acme/app', 'acme/.agents', 'acme/private-app', 'acme/secret-app'] },
    { id: 2, account: 'orgb', repositories: ['orgb/.agents'] },
    { id: 3, account: 'other', repositories: ['other/app', 'other/.agents'] },
  ]);
  github = await skillHost({
    logins: { [ALICE]: 'alice' },
    organizations: { [ALICE]: ['acme', 'orgb'] },
    repositories: {
      'acme/app': readme,
      'acme/.agents': { 'skills/acme-style/SKILL.md': skill('acme-style', 'Write as Acme does.') },
      'acme/private-app': readme,
      'acme/secret-app': readme,
      'orgb/app': readme,
      'orgb/.agents': { 'skills/orgb-style/SKILL.md': skill('orgb-style', 'Write as orgb does.') },
      'other/app': readme,
      'other/.agents': { 'skills/other-secret/SKILL.md': skill('other-secret', 'Never seen by alice.') },
    },
    readers: {
      'acme/app': [ALICE],
      'orgb/app': [ALICE],
      'acme/.agents': [],
      'acme/private-app': [],
      'acme/secret-app': [],
      'orgb/.agents': [],
      'other/.agents': [],
    },
    app,
  });
  // What GitHub says alice may do: read acme/private-app (her token was not given it), nothing in acme/secret-app.
  app.permissions = { 'acme/private-app': { alice: 'read' }, 'acme/secret-app': { alice: 'none' } };
  options.config = {
    git_github_url: github.url,
    git_allow_private_hosts: true,
    // Every start asks the host again (no commit found for one start answers the next).
    marketplace_ref_ttl: 0,
    git_github_app_id: APP_ID,
    git_github_app_slug: 'bosun-test',
    git_github_app_private_key: app.privateKeyPem,
    git_github_app_webhook_secret: WEBHOOK_SECRET,
  };
});
afterAll(() => github?.close());

/** The tokens minted for `repository` (`owner/name`). */
const mintedFor = (repository: string) => app.minted.filter((minted) => minted.repositories.includes(repository));

/** The Git requests for `repository` after the `from`th request of the host. */
const gitRequests = (repository: string, from = 0) =>
  github.requests.slice(from).filter((request) => request.path.startsWith(`/${repository}.git/`));

describeApi(
  "organization skills repositories read with the GitHub App's installation tokens",
  (api) => {
    let alice: TestUser;
    let acmeConversation = '';
    beforeAll(async () => {
      // The host outlives each database's run: its tokens last an hour again (the last test shortens them).
      app.lifetimeMs = HOUR;
      alice = await api().user({ llm_model: 'test-model', llm_base_url: 'http://127.0.0.1:9', llm_api_key: 'k' });
      const stored = await api().call('/api/v1/secrets/git-providers', {
        method: 'POST',
        as: alice,
        body: { provider_tokens: { github: { token: ALICE } } },
      });
      expect(stored.status, stored.text).toBeLessThan(300);
    });
    const skillsOf = async (id: string) => {
      const answer = await api().call(`/api/v1/app-conversations/${id}/skills`, { as: alice });
      expect(answer.status, answer.text).toBe(200);
      return answer.body;
    };
    const names = (listed: { skills: { name: string }[] }) => listed.skills.map((s) => s.name);
    const noTokenIn = (...texts: string[]) => {
      for (const { token } of app.minted) for (const text of texts) expect(text).not.toContain(token);
    };

    it("gives the conversation an organization's .agents its member's token cannot read, read with the installation's token for that repository only", async () => {
      const before = { minted: mintedFor('acme/.agents').length, requests: github.requests.length };
      const task = await readyStart(api(), alice, { selected_repository: 'acme/app', git_provider: 'github' });
      acmeConversation = task.app_conversation_id as string;
      const listed = await skillsOf(acmeConversation);
      expect(listed.skills.find((s: { name: string }) => s.name === 'acme-style')).toMatchObject({
        origin: 'organization_repository',
        origin_source: 'github:acme/.agents',
        commit: github.commits['acme/.agents'],
      });
      expect(listed.repositories).toContainEqual(
        expect.objectContaining({
          source: 'github:acme/.agents',
          resolved_ref: github.commits['acme/.agents'],
          read_with: 'app_installation',
          problem: null,
        }),
      );
      // Alice's token was tried first, and refused; then one token of acme's installation, for .agents only,
      // served the start and the listing (cached), and was what the host was read with.
      const minted = mintedFor('acme/.agents').slice(before.minted);
      expect(minted).toEqual([{ token: expect.any(String), installationId: 1, repositories: ['acme/.agents'] }]);
      const tokens = new Set(gitRequests('acme/.agents', before.requests).map((request) => request.token));
      expect(tokens).toContain(ALICE);
      expect(tokens).toContain(minted[0]?.token);
      // The legacy .bosun is not in the installation: no token is minted for it.
      expect(app.minted.filter((m) => m.repositories.includes('acme/.bosun'))).toEqual([]);
      noTokenIn(JSON.stringify(task), JSON.stringify(listed), api().logs.join('\n'));
    });

    it("reads orgb's .agents with orgb's installation only: no token of acme's installation ever reaches another organization's repository", async () => {
      const before = mintedFor('orgb/.agents').length;
      const task = await readyStart(api(), alice, { selected_repository: 'orgb/app', git_provider: 'github' });
      const listed = await skillsOf(task.app_conversation_id as string);
      expect(names(listed)).toContain('orgb-style');
      expect(names(listed)).not.toContain('acme-style');
      expect(
        mintedFor('orgb/.agents')
          .slice(before)
          .map((m) => m.installationId),
      ).toEqual([2]);
      // Every Git request made with an installation's token, and the organization whose repository it read.
      const read = github.requests.flatMap(({ path, token }) => {
        const installation = app.installationOf(token);
        const git = /^\/([^/]+)\/[^/]+\.git\//.exec(path);
        return installation === undefined || !git ? [] : [{ installation, owner: git[1] }];
      });
      expect(read.filter(({ installation }) => installation === 2).length).toBeGreaterThan(0);
      for (const { installation, owner } of read) expect(owner).toBe(installation === 1 ? 'acme' : 'orgb');
      noTokenIn(JSON.stringify(task), JSON.stringify(listed), api().logs.join('\n'));
    });

    it('reads nothing through the app for a user who is not a member of the organization, and says why', async () => {
      const before = github.requests.length;
      const task = await readyStart(api(), alice, { selected_repository: 'other/app', git_provider: 'github' });
      expect(task.problems).toContainEqual(
        expect.stringMatching(
          /^organization skills repository of other: skipped: .*your github token cannot read it.*; the GitHub App: not asked: your token does not say you are a member of other$/,
        ),
      );
      expect(app.minted.filter((m) => m.installationId === 3)).toEqual([]);
      expect(github.requests.slice(before).filter((r) => r.path.includes('/other/.agents/installation'))).toEqual([]);
      const listed = await skillsOf(task.app_conversation_id as string);
      expect(names(listed)).not.toContain('other-secret');
    });

    it("clones a repository its user may read but their token cannot with the installation's token, and not one they may not read", async () => {
      const before = { minted: mintedFor('acme/private-app').length, requests: github.requests.length };
      const task = await readyStart(api(), alice, { selected_repository: 'acme/private-app', git_provider: 'github' });
      const minted = mintedFor('acme/private-app').slice(before.minted);
      expect(minted.map((m) => m.installationId)).toEqual([1]);
      const tokens = gitRequests('acme/private-app', before.requests).map((request) => request.token);
      expect(tokens).toContain(ALICE);
      expect(tokens).toContain(minted[0]?.token);
      noTokenIn(JSON.stringify(task), api().logs.join('\n'));

      const started = await api().call('/api/v1/app-conversations', {
        method: 'POST',
        as: alice,
        body: { selected_repository: 'acme/secret-app', git_provider: 'github' },
      });
      expect(started.status, started.text).toBe(200);
      const client = new AppServerClient({ baseUrl: api().url, apiKey: alice.key });
      const refused = await waitForStartTask(client, started.body.id, { intervalMs: 20 });
      expect(refused.status).toBe('ERROR');
      expect(refused.detail).toMatch(/^Could not clone acme\/secret-app/);
      const byApp = gitRequests('acme/secret-app').filter((request) => app.installationOf(request.token));
      expect(byApp).toEqual([]);
      noTokenIn(JSON.stringify(refused), api().logs.join('\n'));
    });

    it('mints a cached installation token the host refuses (revoked, expired early) once again, and reads with the new one', async () => {
      const [cached] = mintedFor('acme/.agents').slice(-1);
      app.revokeAll();
      const before = { minted: mintedFor('acme/.agents').length, requests: github.requests.length };
      const task = await readyStart(api(), alice, { selected_repository: 'acme/app', git_provider: 'github' });
      const listed = await skillsOf(task.app_conversation_id as string);
      expect(names(listed)).toContain('acme-style');
      const again = mintedFor('acme/.agents').slice(before.minted);
      expect(again).toHaveLength(1);
      const tokens = gitRequests('acme/.agents', before.requests).map((request) => request.token);
      // The cached token was tried (and refused) before the new one, and never after it.
      expect(tokens).toContain(cached?.token);
      expect(tokens.lastIndexOf(cached?.token)).toBeLessThan(tokens.indexOf(again[0]?.token));
    });

    it("forgets an installation's tokens when its webhook says it changed, and keeps none that expires within minutes", async () => {
      app.lifetimeMs = 4 * 60_000;
      const changed = {
        action: 'added',
        installation: { id: 1, account: { login: 'acme' } },
        repositories_added: [{ full_name: 'acme/tools' }],
        repositories_removed: [],
      };
      const delivered = await signedWebhook(api(), WEBHOOK_SECRET, 'installation_repositories', changed);
      expect(delivered.status, delivered.text).toBe(200);
      // The token minted an hour long is forgotten: the listing's agent is given a new one...
      const minted = mintedFor('acme/.agents').length;
      expect(names(await skillsOf(acmeConversation))).toContain('acme-style');
      expect(mintedFor('acme/.agents')).toHaveLength(minted + 1);
      // ...which expires within the five minutes a token is kept at most before it expires: the next gets another.
      expect(names(await skillsOf(acmeConversation))).toContain('acme-style');
      expect(mintedFor('acme/.agents')).toHaveLength(minted + 2);
    });
  },
  options,
);
