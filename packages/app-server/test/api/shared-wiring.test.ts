import { randomUUID } from 'node:crypto';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AppServerClient } from '@bosun/client';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type RunningAppServer, appServerConfig, startAppServer } from '../../src/index.ts';
import { conversationRow, newUser, repositoriesOf } from '../support/server-users.ts';

/** The whole server as `bosun serve` runs it mounts the shared routes at OpenHands' paths, without credentials. */
let root: string;
let running: RunningAppServer;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'bosun-shared-wiring-'));
  // Sandboxes (none started here) run as another user, who must reach the runtime's root inside it.
  await chmod(root, 0o711);
  running = await startAppServer(appServerConfig({ port: 0, log_level: 'silent', data_dir: join(root, 'data') }));
});
afterAll(async () => {
  await running?.close();
  await rm(root, { recursive: true, force: true });
});

it('serves a conversation its owner made public to a client without credentials', async () => {
  const user = await newUser(running);
  const id = randomUUID();
  await conversationRow(repositoriesOf(running), { id, userId: user.id, sandboxId: null, title: 'Wired' });
  const anyone = new AppServerClient({ baseUrl: running.url });
  const shared = () => anyone.get('/api/shared-conversations', { query: { ids: [id] } });
  expect(await shared()).toEqual([null]);
  await user.app.patch('/api/v1/app-conversations/{conversation_id}', {
    params: { conversation_id: id },
    body: { public: true },
  });
  expect(await shared()).toMatchObject([{ id, title: 'Wired' }]);
  expect(await anyone.get('/api/shared-events/count', { query: { conversation_id: id } })).toBe(0);
});
