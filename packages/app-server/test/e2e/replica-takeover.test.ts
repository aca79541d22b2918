import { randomBytes, randomUUID } from 'node:crypto';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AgentServerClient } from '@bosun/client';
import { type LlmReplay, startLlmReplay } from '@bosun/llm-replay';
import type { StoredEvent } from '@bosun/protocol';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_COMMAND } from '../../../../test/support/sandbox-bundle.ts';
import { createOwnerApiKey } from '../../src/index.ts';
import { REDIS_URL } from '../cache/redis-support.ts';
import { type HeldRemote, heldRemote } from '../conversations/held-remote.ts';
import { POSTGRES_SERVER } from '../support/databases.ts';
import { until, untilSettled } from '../support/until.ts';
import { type AppProcess, processesUnder, serveRefusal, startAppProcess } from './app-process.ts';

/**
 * Replicas as they run: `bosun serve` processes over one PostgreSQL database (made for this file) and one Redis,
 * each with its own embedded runtime (sandboxes isolated by bubblewrap, which ends a sandbox with its server). A
 * start on replica A waits on its repository's clone (the Git remote holds it); messages are queued to its task
 * and acknowledged; then A is killed (SIGKILL) or stopped (SIGTERM), and replica B finishes the start: the agent
 * gets the first message and the queued ones, in order, once.
 */

/** Seconds of the replicas' start task lease: swept every 6 s, touched every 3 s. */
const LEASE_S = 12;
const databaseName = `bosun_replicas_${randomUUID().replaceAll('-', '')}`;
const DATABASE_URL = `${POSTGRES_SERVER}/${databaseName}`;

let root: string;
let llm: LlmReplay;
let remote: HeldRemote;
const started: AppProcess[] = [];

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'bosun-replicas-'));
  // The sandboxes' user must reach the data directories inside (<data_dir>/sandboxes).
  await chmod(root, 0o711);
  llm = await startLlmReplay({ script: { turns: [{ content: 'Noted.', times: 100 }] } });
  remote = await heldRemote(['acme/slow']);
});
afterAll(async () => {
  for (const server of started) await server.kill();
  // What a killed server's sandboxes left (none, with bubblewrap ending them with it): ended by their ids.
  for (const pid of root ? await processesUnder(root) : []) process.kill(pid, 'SIGKILL');
  await remote?.close();
  await llm?.close();
  const admin = new pg.Client({ connectionString: `${POSTGRES_SERVER}/postgres` });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS "${databaseName}" WITH (FORCE)`);
  await admin.end();
  if (root) await rm(root, { recursive: true, force: true });
});

const SECRETS_KEY = randomBytes(32).toString('base64');
let ownerKey: string;

/** A replica: its own data directory (and runtime), the shared database, cache and secrets key. */
async function replica(name: string): Promise<AppProcess> {
  const server = await startAppProcess({
    data_dir: join(root, name),
    database_url: DATABASE_URL,
    redis_url: REDIS_URL,
    secrets_key: SECRETS_KEY,
    start_task_lease: LEASE_S,
    sandbox_command: SANDBOX_COMMAND,
    sandbox_network: 'allow',
    sandbox_allow_hosts: [new URL(remote.url).host],
    git_github_url: remote.url,
    event_sweep_interval: 1,
    log_level: 'info',
  });
  started.push(server);
  return server;
}

/** A row of the task as the database keeps it (what the API does not show: its runner and takeovers). */
async function taskRow(id: string) {
  const client = new pg.Client({ connectionString: DATABASE_URL });
  await client.connect();
  try {
    const { rows } = await client.query(
      'select status, detail, runner, takeovers, updated_at, app_conversation_id from app_conversation_start_tasks where id = $1',
      [id],
    );
    return rows[0] as {
      status: string;
      detail: string | null;
      runner: string | null;
      takeovers: number;
      updated_at: string;
      app_conversation_id: string | null;
    };
  } finally {
    await client.end();
  }
}

/** A call of `server`'s API as the owner: JSON in and out. */
async function call(
  server: AppProcess,
  path: string,
  { method = 'GET', body }: { method?: string; body?: unknown } = {},
) {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${ownerKey}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  // biome-ignore lint/suspicious/noExplicitAny: wire JSON read loosely.
  let parsed: any;
  try {
    parsed = JSON.parse(text);
  } catch {}
  return { status: response.status, body: parsed, text };
}

const message = (text: string) => ({ content: [{ type: 'text', text }] });

function textOf(event: StoredEvent): string {
  const { llm_message } = event as unknown as { llm_message: { content: { text?: string }[] } };
  return llm_message.content.map((item) => item.text ?? '').join('');
}

describe('start tasks of app server processes that stop', () => {
  let a: AppProcess;
  let b: AppProcess;

  beforeAll(async () => {
    a = await replica('a');
    b = await replica('b');
    for (const server of [a, b]) {
      await until(
        async () => server.output(),
        (output) => /Open http/.test(output),
        'the server to announce itself',
      );
      expect(server.output()).toMatch(/Sandboxes: bubblewrap/);
    }
    ownerKey = await createOwnerApiKey({ dataDir: join(root, 'a'), databaseUrl: DATABASE_URL });
    const settings = await call(b, '/api/v1/settings', {
      method: 'POST',
      body: { llm_model: 'test-model', llm_base_url: llm.baseUrl, llm_api_key: 'llm-key' },
    });
    expect(settings.status, settings.text).toBeLessThan(300);
  }, 120_000);

  /** Starts a conversation on `server` cloning the held repository; answers its task once the clone waits. */
  async function startHeld(server: AppProcess, first: string): Promise<string> {
    remote.hold();
    const answer = await call(server, '/api/v1/app-conversations', {
      method: 'POST',
      body: { selected_repository: 'acme/slow', initial_message: { ...message(first), run: true } },
    });
    expect(answer.status, answer.text).toBe(200);
    const taskId = answer.body.id as string;
    await until(
      async () => remote.waiting(),
      (waiting) => waiting > 0,
      'the clone to reach the remote',
      90_000,
    );
    expect(await taskRow(taskId)).toMatchObject({ status: 'PREPARING_REPOSITORY', takeovers: 0 });
    return taskId;
  }

  /** Queues `texts` for the task on `server`, each acknowledged. */
  async function queue(server: AppProcess, taskId: string, ...texts: string[]) {
    for (const text of texts) {
      const queued = await call(server, `/api/v1/conversations/task-${taskId}/pending-messages`, {
        method: 'POST',
        body: message(text),
      });
      expect(queued.status, queued.text).toBe(201);
    }
  }

  /** The task READY on `server`, and the user's messages its agent got, once the last of `texts` is there. */
  async function finished(server: AppProcess, taskId: string, last: string) {
    const done = await untilSettled(() => taskRow(taskId), 'the start to end', 90_000);
    expect(done, done.detail ?? '').toMatchObject({ status: 'READY' });
    const id = done.app_conversation_id as string;
    const [conversation] = (await call(server, `/api/v1/app-conversations?ids=${id}`)).body;
    const baseUrl = String(conversation.conversation_url).replace(/\/api\/conversations\/.*$/, '');
    const agent = new AgentServerClient({ baseUrl, sessionApiKey: conversation.session_api_key });
    for await (const event of agent.followEvents(id, { fromStart: true })) {
      if (event.kind === 'MessageEvent' && textOf(event) === last) break;
    }
    const texts: string[] = [];
    for await (const event of agent.iterateEvents(id)) {
      if (event.kind === 'MessageEvent' && event.source === 'user') texts.push(textOf(event));
    }
    return { done, texts };
  }

  it('killed (SIGKILL) mid-start: B takes the task over after its lease and delivers every message once', async () => {
    const taskId = await startHeld(a, 'FIRST');
    await queue(a, taskId, 'SECOND', 'THIRD');
    const before = await taskRow(taskId);
    await a.kill();
    // Nothing of A runs on: its sandbox (bubblewrap, --die-with-parent) ended with it.
    await until(
      () => processesUnder(join(root, 'a')),
      (left) => left.length === 0,
      "A's sandbox to end",
    );
    // Its sandbox went with it; the clone it was making is refused, then the remote serves again.
    remote.refuse();
    remote.open();
    const claimed = await until(
      () => taskRow(taskId),
      (row) => row.runner !== before.runner,
      'replica B to take the task over',
      (LEASE_S + LEASE_S / 2 + 10) * 1000,
    );
    expect(claimed.takeovers).toBe(1);
    const { texts } = await finished(b, taskId, 'THIRD');
    expect(texts).toEqual(['FIRST', 'SECOND', 'THIRD']);
    expect(b.output()).toMatch(/start task taken over/);
  }, 180_000);

  it('stopped (SIGTERM) mid-start: the task is handed over, B claims it at its next sweep, not a lease later', async () => {
    const c = await replica('c');
    const taskId = await startHeld(c, 'ONE');
    await queue(c, taskId, 'TWO');
    const held = await taskRow(taskId);
    expect(held.runner).toEqual(expect.any(String));
    await c.stop();
    const stoppedAt = Date.now();
    expect(c.output()).toMatch(/start task handed over/);
    // Released by C (B's next sweep may have claimed it already: not C's any more, and never counted as a takeover).
    expect(await taskRow(taskId)).toMatchObject({ takeovers: 0 });
    expect((await taskRow(taskId)).runner).not.toBe(held.runner);
    remote.refuse();
    remote.open();
    const claimed = await until(
      () => taskRow(taskId),
      (row) => row.runner !== null && row.runner !== held.runner,
      'replica B to claim the task',
      LEASE_S * 1000,
    );
    // Within one sweep of B (every half lease): a task left to its lease would wait most of it after the stop.
    expect(Date.now() - stoppedAt).toBeLessThan((LEASE_S / 2 + 1.5) * 1000);
    expect(claimed.takeovers).toBe(0);
    const { texts, done } = await finished(b, taskId, 'TWO');
    expect(texts).toEqual(['ONE', 'TWO']);
    expect(done.takeovers).toBe(0);
  }, 180_000);
});

describe('the start task lease setting', () => {
  it('is refused out of its range or not a number, as a flag or a variable (exit 2, naming it)', async () => {
    const dataDir = join(root, 'refused');
    expect(await serveRefusal(['--data-dir', dataDir, '--start-task-lease', '0'])).toEqual({
      code: 2,
      stderr: "bosun serve: --start-task-lease: must be a number from 1 to 3600, got '0'\n",
    });
    expect(await serveRefusal(['--data-dir', dataDir], { BOSUN_START_TASK_LEASE: 'soon' })).toEqual({
      code: 2,
      stderr: "bosun serve: BOSUN_START_TASK_LEASE: must be a number from 1 to 3600, got 'soon'\n",
    });
  });
});
