import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Repositories } from '../../src/data/index.ts';
import { LOCAL_SPEC, LocalSandboxes, type LocalSandboxesOptions } from '../../src/sandboxes/index.ts';
import { describeEachDatabase } from '../support/databases.ts';

describeEachDatabase('local sandboxes', (each) => {
  let repositories: Repositories;
  let dataDir: string;
  const options = (extra: Partial<LocalSandboxesOptions> = {}): LocalSandboxesOptions => ({
    repository: repositories.sandboxes,
    dataDir,
    specs: [LOCAL_SPEC],
    maxRunningPerUser: 10,
    startTimeoutMs: 60_000,
    stopGraceMs: 12_000,
    ...extra,
  });
  const newUser = async () => (await repositories.users.create({ email: `u-${randomUUID()}@example.test` })).id;

  beforeAll(async () => {
    repositories = (await each.shared()).repositories;
    dataDir = await mkdtemp(join(tmpdir(), 'bosun-sandboxes-'));
  });
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  it('pauses, at start, what the previous run of the app left running (it holds none of their keys)', async () => {
    const owner = await newUser();
    const id = `left${randomUUID().slice(0, 8)}`;
    const hash = 'a'.repeat(64);
    await repositories.sandboxes.create({ id, userId: owner, specId: 'bosun-local', status: 'RUNNING' });
    await repositories.sandboxes.update(id, { session_api_key_hash: hash });
    const sandboxes = await LocalSandboxes.open(options());
    const found = await sandboxes.get(owner, id);
    expect(found).toMatchObject({ status: 'MISSING', sessionApiKey: null, agentServerUrl: null });
    expect(await repositories.sandboxes.get(owner, id)).toMatchObject({
      status: 'PAUSED',
      status_detail: expect.stringContaining('the app server restarted'),
      session_api_key_hash: null,
    });
    expect(await repositories.sandboxes.getBySessionKeyHash(hash)).toBeUndefined();
    await sandboxes.close();
  });

  it('says why an agent server that exits at start failed, without its session key', async () => {
    const owner = await newUser();
    const script = 'console.error("boom: " + process.env.BOSUN_SESSION_API_KEYS); process.exit(3)';
    const sandboxes = await LocalSandboxes.open(options({ command: [process.execPath, '-e', script] }));
    const sandbox = await sandboxes.start(LOCAL_SPEC, owner);
    expect(sandbox.status).toBe('ERROR');
    expect(sandbox.statusDetail).toMatch(/exited with code 3: boom: \*\*\*$/);
    const log = await readFile(join(dataDir, 'sandboxes', sandbox.id, 'agent-server.log'), 'utf8');
    expect(log).toMatch(/^boom: /);
    await sandboxes.close();
  });

  it('stops its sandboxes when it closes: they are PAUSED, their workspaces kept', async () => {
    const owner = await newUser();
    const sandboxes = await LocalSandboxes.open(options());
    const sandbox = await sandboxes.start(LOCAL_SPEC, owner);
    expect(sandbox.status).toBe('RUNNING');
    const url = sandbox.agentServerUrl as string;
    expect((await fetch(`${url}/alive`)).status).toBe(200);
    const found = await sandboxes.bySessionKey(sandbox.sessionApiKey as string);
    expect(found?.id).toBe(sandbox.id);
    await sandboxes.close();
    await expect(fetch(`${url}/alive`)).rejects.toThrow();
    expect(await repositories.sandboxes.get(owner, sandbox.id)).toMatchObject({
      status: 'PAUSED',
      status_detail: 'the app server stopped',
      session_api_key_hash: null,
    });
    expect(await sandboxes.bySessionKey(sandbox.sessionApiKey as string)).toBeUndefined();
    expect((await sandboxes.get(owner, sandbox.id))?.status).toBe('PAUSED');
  });
});
