import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type LlmReplay, startLlmReplay } from '@bosun/llm-replay';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_COMMAND } from '../../../../test/support/sandbox-bundle.ts';
import { createOwnerApiKey } from '../../src/index.ts';
import { until } from '../support/until.ts';
import { type AppProcess, processesUnder, startAppProcess } from './app-process.ts';

/**
 * `bosun serve` stopped (SIGTERM) while conversations start in it (their sandboxes' agent servers starting under
 * bubblewrap): it stops within its deadline, never killing itself, and hands every start it did not finish over,
 * so the next app server on the same data takes them at once instead of a lease (a minute) later.
 */
const STARTS = 3;
let root: string;
let llm: LlmReplay;
const started: AppProcess[] = [];

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'bosun-stop-starts-'));
  await chmod(root, 0o711);
  llm = await startLlmReplay({ script: { turns: [{ content: 'Noted.', times: 100 }] } });
});
afterAll(async () => {
  for (const server of started) await server.kill();
  for (const pid of root ? await processesUnder(root) : []) process.kill(pid, 'SIGKILL');
  await llm?.close();
  if (root && !process.env.KEEP) await rm(root, { recursive: true, force: true });
  if (process.env.KEEP) console.log('KEPT', root);
});

async function app(): Promise<AppProcess> {
  const server = await startAppProcess({
    data_dir: join(root, 'data'),
    sandbox_command: SANDBOX_COMMAND,
    sandbox_network: 'open',
    log_level: 'info',
  });
  started.push(server);
  return server;
}

async function call(server: AppProcess, key: string, path: string, body?: unknown) {
  const response = await fetch(`${server.url}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined, text };
}

describe('bosun serve stopped while starts are under way', () => {
  it('stops within its deadline and hands every start over: the next server finishes them at once', async () => {
    const first = await app();
    const key = await createOwnerApiKey({ dataDir: join(root, 'data') });
    const settings = await call(first, key, '/api/v1/settings', {
      llm_model: 'test-model',
      llm_base_url: llm.baseUrl,
      llm_api_key: 'llm-key',
    });
    expect(settings.status, settings.text).toBeLessThan(300);
    const tasks: string[] = [];
    for (let i = 0; i < STARTS; i++) {
      const answer = await call(first, key, '/api/v1/app-conversations', {
        initial_message: { content: [{ type: 'text', text: `hello ${i}` }], run: true },
      });
      expect(answer.status, answer.text).toBe(200);
      tasks.push(answer.body.id);
    }
    const stopping = Date.now();
    await first.stop();

    const output = first.output();

    expect(output).not.toMatch(/exiting now/);
    expect(output).toMatch(/Stopping \(SIGTERM\)/);

    // A lease is a minute: a start left to it would still be WORKING well after this wait.
    const second = await app();
    const ids = tasks.map((id) => `ids=${id}`).join('&');
    const settled = await until(
      () => call(second, key, `/api/v1/app-conversations/start-tasks?${ids}`),
      (answer) =>
        Array.isArray(answer.body) && answer.body.every((task: { status: string } | null) => task?.status === 'READY'),
      'every start READY on the next server',
      40_000,
    );
    expect(settled.body.map((task: { status: string }) => task.status)).toEqual(tasks.map(() => 'READY'));
  }, 180_000);
});
