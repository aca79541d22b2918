import { randomUUID } from 'node:crypto';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AppServerClient } from '@bosun/client';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type RunningAppServer, appServerConfig, startAppServer } from '../../src/index.ts';

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
  const services = running.server.context.services;
  if (!services) throw new Error('the server has no services');
  const user = await services.repositories.users.create({ email: `${randomUUID()}@example.test` });
  const { key } = await services.repositories.apiKeys.create({ userId: user.id, name: 'test' });
  const id = randomUUID();
  const now = new Date().toISOString();
  await services.repositories.conversations.insert([
    { id, user_id: user.id, org_id: null, sandbox_id: null, title: 'Wired', created_at: now, updated_at: now },
  ]);
  const anyone = new AppServerClient({ baseUrl: running.url });
  expect(await anyone.getSharedConversations([id])).toEqual([null]);
  await new AppServerClient({ baseUrl: running.url, apiKey: key }).updateAppConversation(id, { public: true });
  expect(await anyone.getSharedConversations([id])).toMatchObject([{ id, title: 'Wired' }]);
  expect(await anyone.countSharedEvents(id)).toBe(0);
});
