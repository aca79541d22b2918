import { mkdir, mkdtemp, readFile, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BashEventStore } from '../src/bash/event-store.ts';
import { BashRunner } from '../src/bash/runner.ts';
import { call, getWithBody } from './support/http.ts';
import { startTestServer } from './support/server.ts';
import { tempDirPerFile, testServerPerFile } from './support/shared-server.ts';

type Json = Record<string, unknown>;
const KEY = 'bash-key';
const headers = { 'X-Session-API-Key': KEY };

const workspace = tempDirPerFile('bosun-bash-ws-');
const dataDir = tempDirPerFile('bosun-bash-data-');
beforeAll(() => {
  process.env.BOSUN_TEST_SECRET_FOR_BASH = 'must-not-leak';
});
afterAll(() => {
  delete process.env.BOSUN_TEST_SECRET_FOR_BASH;
});
const serverOptions = { dataDir, workspaceRoot: workspace, sessionApiKeys: [KEY] };
const server = testServerPerFile(serverOptions);

const post = (path: string, json: unknown) => call<Json>(server.url, path, { method: 'POST', json, headers });
const get = (path: string) => call<Json>(server.url, path, { headers });
const execute = (json: Json) => post('/api/bash/execute_bash_command', json);

describe('bash commands', () => {
  it('execute waits and answers the last output with the exit code, in the workspace by default', async () => {
    const reply = await execute({ command: 'pwd; echo oops >&2; exit 3' });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body).toMatchObject({ kind: 'BashOutput', exit_code: 3, stderr: 'oops\n' });
    expect(String(reply.body.stdout).trim()).toBe(await realWorkspace());
    expect(reply.body.command_id).toMatch(/^[0-9a-f]{32}$/);
  });

  it('start answers the BashCommand at once; its output is found by command id', async () => {
    const started = await post('/api/bash/start_bash_command', { command: 'echo started', timeout: 30 });
    expect(started.status).toBe(200);
    expect(started.body).toMatchObject({ kind: 'BashCommand', command: 'echo started', timeout: 30 });
    const id = String(started.body.id);
    const output = await waitFor(async () => {
      const page = await get(`/api/bash/bash_events/search?command_id__eq=${id}&kind__eq=BashOutput`);
      const items = page.body.items as Json[];
      return items.find((item) => item.exit_code !== null);
    });
    expect(output).toMatchObject({ stdout: 'started\n', exit_code: 0, order: 0 });
    expect((await get(`/api/bash/bash_events/${id}`)).body).toEqual(started.body);
  });

  it('stops a command at its timeout, with the processes it started, exit code -1', async () => {
    const pidFile = join(workspace, 'background.pid');
    const reply = await execute({ command: `sleep 60 & echo $! > ${pidFile}; sleep 60`, timeout: 1 });
    expect(reply.body).toMatchObject({ exit_code: -1 });
    expect(String(reply.body.stderr)).toContain('timed out');
    const pid = (await readFile(pidFile, 'utf8')).trim();
    // Gone, or a zombie waiting to be reaped: never still running.
    const state = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => 'gone');
    expect(state === 'gone' || state.split(') ')[1]?.startsWith('Z')).toBe(true);
  });

  it('keeps the server active (idle_time 0) while a command runs', async () => {
    const own = await startTestServer({ workspaceRoot: workspace });
    try {
      const info = async () => (await call<{ uptime: number; idle_time: number }>(own.url, '/server_info')).body;
      const running = call<Json>(own.url, '/api/bash/execute_bash_command', {
        method: 'POST',
        json: { command: 'sleep 60', timeout: 3 },
      });
      const later = await waitFor(async () => {
        const now = await info();
        return now.uptime >= 2 ? now : undefined;
      });
      expect(later.idle_time).toBe(0);
      expect((await running).body).toMatchObject({ exit_code: -1 });
    } finally {
      await own.close();
    }
  });

  it('never passes the server’s secrets to a command', async () => {
    const reply = await execute({ command: 'env' });
    expect(reply.body.stdout).not.toContain('BOSUN_TEST_SECRET_FOR_BASH');
    expect(reply.body.stdout).not.toContain('must-not-leak');
  });

  it('splits output over 1 MiB into ordered chunks', async () => {
    const reply = await execute({ command: 'head -c 2500000 /dev/zero | tr "\\0" a' });
    const page = await get(`/api/bash/bash_events/search?command_id__eq=${reply.body.command_id}&kind__eq=BashOutput`);
    const items = page.body.items as { order: number; stdout: string | null; exit_code: number | null }[];
    expect(items.map((item) => item.order)).toEqual(items.map((_, i) => i));
    expect(items.length).toBeGreaterThanOrEqual(3);
    expect(items.reduce((n, item) => n + (item.stdout?.length ?? 0), 0)).toBe(2_500_000);
    expect(items.at(-1)?.exit_code).toBe(0);
  });

  it('refuses a cwd outside the workspace, through .. or a link, or in the data directory', async () => {
    await symlink('/etc', join(workspace, 'etc-link')).catch(() => undefined);
    for (const cwd of [`${workspace}/../`, join(workspace, 'etc-link'), '/proc', dataDir]) {
      const reply = await execute({ command: 'echo no', cwd });
      expect(reply.status, cwd).toBe(403);
      expect(reply.body).toEqual({ detail: expect.stringContaining('outside the workspace') });
    }
    const missing = await execute({ command: 'echo no', cwd: join(workspace, 'missing') });
    expect(missing.status).toBe(422);
    expect((missing.body.detail as Json[])[0]).toMatchObject({
      loc: ['body', 'cwd'],
      msg: 'Not an existing directory',
    });
    const relative = await execute({ command: 'echo no', cwd: 'sub' });
    expect(relative.status).toBe(422);
    expect((relative.body.detail as Json[])[0]).toMatchObject({ loc: ['body', 'cwd'] });
    await mkdir(join(workspace, 'sub'), { recursive: true });
    expect((await execute({ command: 'pwd', cwd: join(workspace, 'sub') })).body.stdout).toBe(
      `${join(await realWorkspace(), 'sub')}\n`,
    );
  });

  it('answers 422 for bad input and 401 without the key', async () => {
    for (const body of [{}, { command: '' }, { command: 'x', timeout: 0 }, { command: 'x', extra: 1 }]) {
      expect((await execute(body)).status, JSON.stringify(body)).toBe(422);
    }
    // A NUL character cannot reach a process's arguments or a path (the HTTP fuzzer found the 500).
    for (const path of ['/api/bash/execute_bash_command', '/api/bash/start_bash_command']) {
      const nul = await post(path, { command: 'echo a\u0000b' });
      expect(nul.status, path).toBe(422);
      expect((nul.body.detail as Json[])[0]).toMatchObject({ loc: ['body', 'command'] });
      const inCwd = await post(path, { command: 'pwd', cwd: `${workspace}/a\u0000b` });
      expect(inCwd.status, path).toBe(422);
      expect((inCwd.body.detail as Json[])[0]).toMatchObject({ loc: ['body', 'cwd'] });
    }
    expect((await get('/api/bash/bash_events/search?limit=101')).status).toBe(422);
    expect((await get('/api/bash/bash_events/search?page_id=ffffffffffffffffffffffffffffffff')).status).toBe(422);
    for (const [method, path] of [
      ['POST', '/api/bash/start_bash_command'],
      ['POST', '/api/bash/execute_bash_command'],
      ['GET', '/api/bash/bash_events/search'],
      ['GET', '/api/bash/bash_events/ffffffffffffffffffffffffffffffff'],
      ['DELETE', '/api/bash/bash_events'],
    ] as const) {
      const reply = await call(server.url, path, { method, json: method === 'POST' ? { command: 'x' } : undefined });
      expect(reply.status, path).toBe(401);
    }
    expect((await getWithBody(server.url, '/api/bash/bash_events/', '[]')).status).toBe(401);
  });
});

describe('bash events', () => {
  it('pages in both orders, gets in batch, survive a restart, and are cleared', async () => {
    const first = await execute({ command: 'echo one' });
    await execute({ command: 'echo two' });
    const asc = await get('/api/bash/bash_events/search?kind__eq=BashCommand&limit=1');
    expect((asc.body.items as Json[]).length).toBe(1);
    const next = await get(
      `/api/bash/bash_events/search?kind__eq=BashCommand&limit=1&page_id=${asc.body.next_page_id}`,
    );
    expect((next.body.items as Json[])[0]?.id).toBe(asc.body.next_page_id);
    const desc = await get('/api/bash/bash_events/search?kind__eq=BashCommand&sort_order=TIMESTAMP_DESC&limit=1');
    expect((desc.body.items as Json[])[0]).toMatchObject({ command: 'echo two' });
    const after = await get(`/api/bash/bash_events/search?order__gt=0&command_id__eq=${first.body.command_id}`);
    expect(after.body.items).toEqual([]);

    const batch = await getWithBody<unknown[]>(
      server.url,
      '/api/bash/bash_events/',
      JSON.stringify([first.body.id, 'ffffffffffffffffffffffffffffffff']),
      headers,
    );
    expect(batch.status).toBe(200);
    expect(batch.body).toEqual([first.body, null]);
    const twin = await post('/api/bash/bash_events/batch', [first.body.id]);
    expect(twin.body).toEqual([first.body]);
    expect((await get('/api/bash/bash_events/ffffffffffffffffffffffffffffffff')).status).toBe(404);

    await server.close();
    // The file's server again, over the same data directory.
    Object.assign(server, await startTestServer(serverOptions));
    expect((await get(`/api/bash/bash_events/${first.body.id}`)).body).toEqual(first.body);

    const total = ((await get('/api/bash/bash_events/search?limit=100')).body.items as Json[]).length;
    const cleared = await call<Json>(server.url, '/api/bash/bash_events', { method: 'DELETE', headers });
    expect(cleared.body.cleared_count).toBeGreaterThanOrEqual(total);
    expect((await get('/api/bash/bash_events/search')).body.items).toEqual([]);
  });
});

describe('bash commands and the server’s life', () => {
  it('closing the server stops a running command; a waiting execute answers exit code -1', async () => {
    const own = await startTestServer({ workspaceRoot: workspace });
    const waiting = call<Json>(own.url, '/api/bash/execute_bash_command', {
      method: 'POST',
      json: { command: 'echo begun; sleep 60' },
    });
    await waitFor(async () => {
      const page = await call<Json>(own.url, '/api/bash/bash_events/search?kind__eq=BashCommand');
      return (page.body.items as Json[]).length > 0 ? true : undefined;
    });
    await own.close();
    expect((await waiting).body).toMatchObject({ kind: 'BashOutput', exit_code: -1 });
  });

  it('ends a command Node cannot spawn at once, exit code -1 with why (no rejection left unhandled)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'bosun-bash-store-'));
    try {
      const store = new BashEventStore(join(dir, 'bash-events.sqlite'));
      const { done } = new BashRunner(store).start({ command: 'echo a\u0000b', cwd: dir, timeout: 10 });
      expect(await done).toMatchObject({ exit_code: -1, stderr: expect.stringMatching(/null bytes/) });
      store.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('gives a command left without a final output (a crash) one with exit code -1 on restart', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'bosun-bash-store-'));
    try {
      const file = join(dir, 'bash-events.sqlite');
      const store = new BashEventStore(file);
      const command = { kind: 'BashCommand' as const, id: 'a'.repeat(32), timestamp: new Date().toISOString() };
      store.append({ ...command, command: 'sleep 9', cwd: dir, timeout: 10 });
      const chunk = { kind: 'BashOutput' as const, id: 'b'.repeat(32), timestamp: command.timestamp };
      store.append({ ...chunk, command_id: command.id, order: 0, exit_code: null, stdout: 'x', stderr: null });
      store.close();
      const reopened = new BashEventStore(file);
      void new BashRunner(reopened);
      const outputs = reopened.search({
        command_id__eq: command.id,
        kind__eq: 'BashOutput',
        sort_order: 'TIMESTAMP',
        limit: 10,
      });
      expect(outputs?.items.map((item) => item.kind === 'BashOutput' && [item.order, item.exit_code])).toEqual([
        [0, null],
        [1, -1],
      ]);
      void new BashRunner(reopened);
      expect(reopened.search({ kind__eq: 'BashOutput', sort_order: 'TIMESTAMP', limit: 10 })?.items).toHaveLength(2);
      reopened.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

async function realWorkspace(): Promise<string> {
  const { realpath } = await import('node:fs/promises');
  return realpath(workspace);
}

async function waitFor<T>(probe: () => Promise<T | undefined>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
