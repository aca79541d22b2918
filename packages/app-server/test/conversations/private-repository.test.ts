import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { serveGitOverHttp } from '../../../agent/test/git/support.ts';
import type { AppServerConfig } from '../../src/index.ts';
import { type TestUser, describeApi } from '../api/harness.ts';
import { bareRepository, streamStart, tempDir } from './support.ts';

const TOKEN = 'ghp_private-repository-token';
/** Filled in before the servers start (the Git server's port is known only then). */
const options: { config: Partial<AppServerConfig> } = { config: {} };
let git: Awaited<ReturnType<typeof serveGitOverHttp>>;
let removeRemotes = async () => {};

beforeAll(async () => {
  const remotes = await tempDir('bosun-private-');
  removeRemotes = remotes.remove;
  for (const name of ['acme/private', 'acme/other']) {
    await bareRepository(remotes.dir, name, { main: { 'SECRET-PLANS.md': 'plans\n' } });
  }
  git = await serveGitOverHttp(remotes.dir, { username: 'x-access-token', password: TOKEN });
  options.config.git_github_url = git.url;
});
afterAll(async () => {
  await git?.close();
  await removeRemotes();
});

describeApi(
  'a private repository cloned with the user’s provider token',
  (api) => {
    let owner: TestUser;
    beforeAll(async () => {
      owner = await api().user({ llm_model: 'test-model' });
    });

    it('clones with the token, which stays in no file, command, event, task or log; without it the start says why', async () => {
      await api().call('/api/v1/secrets/git-providers', {
        method: 'POST',
        as: owner,
        body: { provider_tokens: { github: { token: TOKEN } } },
      });
      const cloned = await streamStart(api(), owner, { selected_repository: 'acme/private' });
      expect(cloned.last, cloned.text).toMatchObject({ status: 'READY', problems: [] });
      expect(git.requests.some((request) => request.authorized && request.path.includes('acme/private'))).toBe(true);

      const sandboxId: string = cloned.last.sandbox_id;
      const workspace = await api().workspaceOf(sandboxId);
      expect(await readdir(workspace)).toEqual(['private']);
      expect(await readFile(join(workspace, 'private', 'SECRET-PLANS.md'), 'utf8')).toBe('plans\n');
      expect(await readFile(join(workspace, 'private', '.git', 'config'), 'utf8')).not.toContain(TOKEN);
      const [sandbox] = (await api().call(`/api/v1/sandboxes?id=${sandboxId}`, { as: owner })).body;
      const agentUrl = sandbox.exposed_urls[0].url;
      const bashEvents = await fetch(`${agentUrl}/api/bash/bash_events/search`, {
        headers: { 'X-Session-API-Key': sandbox.session_api_key },
      });
      const bashText = await bashEvents.text();
      expect(bashText).toContain('git clone');
      expect(bashText).not.toContain(TOKEN);
      expect(bashText).not.toContain(encodeURIComponent(TOKEN));

      await api().call('/api/v1/secrets/git-providers', { method: 'DELETE', as: owner });
      const refused = await streamStart(api(), owner, { sandbox_id: sandboxId, selected_repository: 'acme/other' });
      expect(refused.last.status).toBe('ERROR');
      expect(refused.last.detail).toMatch(new RegExp(`^Could not clone acme/other from ${git.url}/acme/other\\.git: `));
      for (const text of [cloned.text, refused.text, api().logs.join('\n')]) expect(text).not.toContain(TOKEN);
    });
  },
  options,
);
