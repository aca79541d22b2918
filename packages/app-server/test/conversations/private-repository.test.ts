import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { type TestUser, describeApi } from '../api/harness.ts';
import { gitRemotes } from '../support/git-remotes.ts';
import { bareRepository, streamStart } from './support.ts';

const TOKEN = 'ghp_private-repository-token';
const remotes = gitRemotes(
  'bosun-private-',
  async (dir) => {
    for (const name of ['acme/private', 'acme/other']) {
      await bareRepository(dir, name, { main: { 'SECRET-PLANS.md': 'plans\n' } });
    }
  },
  { credentials: { username: 'x-access-token', password: TOKEN } },
);

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
      expect(cloned.last, cloned.text).toMatchObject({ status: 'READY' });
      // The clone has no problem; this Git host has no skills repositories for the owner nor a provider API.
      const skillRepositoryLine = /^(user|organization) skills repository /;
      expect(cloned.last.problems.filter((line: string) => !skillRepositoryLine.test(line))).toEqual([]);
      expect(
        remotes.server().requests.some((request) => request.authorized && request.path.includes('acme/private')),
      ).toBe(true);

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
      expect(refused.last.detail).toMatch(
        new RegExp(`^Could not clone acme/other from ${remotes.server().url}/acme/other\\.git: `),
      );
      for (const text of [cloned.text, refused.text, api().logs.join('\n')]) expect(text).not.toContain(TOKEN);
    });
  },
  remotes.options,
);
