import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { appServerConfig, startAppServer } from '../../src/index.ts';
import { startGitHost } from '../support/git-host.ts';
import { hostAccount } from './git-browse-world.ts';

const dataDir = await mkdtemp(join(tmpdir(), 'bosun-git-browse-server-'));
await chmod(dataDir, 0o711);
const host = await startGitHost();
afterAll(async () => {
  await host.close();
  await rm(dataDir, { recursive: true, force: true });
});

it('the server as started browses the configured Git provider with the caller’s token', async () => {
  const config = { port: 0, log_level: 'silent' as const, data_dir: dataDir, git_github_url: host.url };
  const running = await startAppServer(appServerConfig(config));
  try {
    const repositories = running.server.context.services?.repositories;
    if (!repositories) throw new Error('the started server has its services');
    const user = await repositories.users.create({ email: 'git-browse@example.test', name: 'Git Browse' });
    const { key } = await repositories.apiKeys.create({ userId: user.id, name: 'test' });
    host.accounts.set('ghp-started', hostAccount('started', 5));
    await repositories.providerTokens.set(user.id, 'github', { token: 'ghp-started' });
    const answer = await fetch(`${running.url}/api/v1/git/repositories/search?provider=github&limit=1`, {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(await answer.json()).toEqual({
      items: [expect.objectContaining({ full_name: 'started/alpha' })],
      next_page_id: '2',
    });
    expect(host.requests.at(-1)).toEqual({
      path: '/api/v3/user/repos?sort=pushed&direction=desc&page=1&per_page=1',
      credential: 'ghp-started',
    });
    expect((await fetch(`${running.url}/api/v1/users/git-organizations`)).status).toBe(401);
  } finally {
    await running.close();
  }
});
