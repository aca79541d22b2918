import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { appServerConfig, startAppServer } from '../../src/index.ts';

const dataDir = await mkdtemp(join(tmpdir(), 'bosun-catalog-server-'));
await chmod(dataDir, 0o711);
afterAll(() => rm(dataDir, { recursive: true, force: true }));

const ROUTES = [
  '/api/v1/settings/agent-schema',
  '/api/v1/settings/conversation-schema',
  '/api/v1/config/models/search',
  '/api/v1/config/providers/search',
  '/api/v1/skills/search',
  '/api/v1/users/git-info',
];

it('the server as started has the catalog routes, behind authentication like the rest of /api/v1', async () => {
  const server = await startAppServer(appServerConfig({ port: 0, log_level: 'silent', data_dir: dataDir }));
  try {
    const document = (await (await fetch(`${server.url}/openapi.json`)).json()) as {
      paths: Record<string, { get?: unknown }>;
    };
    for (const path of ROUTES) {
      expect(document.paths[path]?.get, path).toBeDefined();
      const answer = await fetch(`${server.url}${path}`);
      expect(answer.status, path).toBe(401);
      expect(await answer.json()).toEqual({ detail: expect.any(String) });
    }
  } finally {
    await server.close();
  }
});
