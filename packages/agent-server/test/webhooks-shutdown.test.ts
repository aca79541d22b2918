import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { type EventBody, type Page, call, createConversation, sendMessage } from './support/http.ts';
import { tempDirPerFile } from './support/shared-server.ts';
import { webhookReceiverPerFile } from './support/webhook-receiver.ts';

/** SIGTERM posts what waits (within a short bound); what cannot be posted then is posted after the next start. */

const CLI = fileURLToPath(new URL('../../cli/bin/bosun.js', import.meta.url));
const KEY = 'shutdown-key';
const headers = { 'X-Session-API-Key': KEY };

const root = tempDirPerFile('bosun-webhooks-shutdown-');
const receiver = webhookReceiverPerFile();
const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
});

interface Running {
  url: string;
  /** SIGTERM, then the exit code once it has exited. */
  stop(): Promise<number | null>;
  /** SIGKILL (a crash), once it has exited. */
  kill(): Promise<unknown>;
}

/** `bosun agent-server` over `dataDir`, posting webhooks to the receiver (they wait `flushMs` to be batched). */
function startServer(dataDir: string, flushMs: number): Promise<Running> {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('BOSUN_')));
  const child = spawn(process.execPath, [CLI, 'agent-server', '--port', '0', '--data-dir', dataDir], {
    env: {
      ...env,
      BOSUN_LOG_LEVEL: 'warn',
      BOSUN_SESSION_API_KEYS: KEY,
      BOSUN_WEBHOOK_BASE_URL: receiver.baseUrl,
      BOSUN_WEBHOOK_FLUSH_MS: String(flushMs),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let output = '';
  child.stderr.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const url = /listening on (http:\/\/\S+)/.exec(output)?.[1];
      if (!url) return;
      const signal = (name: NodeJS.Signals) => {
        child.kill(name);
        return exited;
      };
      resolve({ url, stop: () => signal('SIGTERM'), kill: () => signal('SIGKILL') });
    });
    void exited.then(() => reject(new Error(`agent server exited:\n${output}`)));
  });
}

const startConversation = async (base: string) => (await createConversation(base, {}, headers)).id;
const send = (base: string, id: string, text: string) => sendMessage(base, id, text, { headers });

async function logIds(base: string, id: string): Promise<string[]> {
  const reply = await call<Page<EventBody>>(base, `/api/conversations/${id}/events/search?limit=100`, { headers });
  return reply.body.items.map((event) => event.id);
}

describe('webhooks at shutdown', () => {
  it('posts what waits for its flush when the server is stopped', async () => {
    const server = await startServer(join(root, 'flush'), 60_000);
    const id = await startConversation(server.url);
    for (let i = 0; i < 3; i++) await send(server.url, id, `waiting ${i}`);
    const log = await logIds(server.url, id);
    expect(receiver.events(id)).toEqual([]);
    expect(await server.stop()).toBe(0);
    expect(receiver.events(id).map((event) => event.id)).toEqual(log);
    expect(receiver.infos(id)).toHaveLength(1);
  });

  it('does not wait long for an application that does not answer, and posts after the next start', async () => {
    const dataDir = join(root, 'hung');
    const first = await startServer(dataDir, 0);
    const id = await startConversation(first.url);
    await receiver.until(() => receiver.infos(id).length === 1);
    const release = receiver.hold();
    for (let i = 0; i < 3; i++) await send(first.url, id, `unanswered ${i}`);
    await receiver.until(() => receiver.waiting > 0);
    const log = await logIds(first.url, id);
    const stopping = Date.now();
    // Stopped well within the server's 10 s deadline (which would exit with a failure code).
    expect(await first.stop()).toBe(0);
    expect(Date.now() - stopping).toBeLessThan(8000);
    release();

    const second = await startServer(dataDir, 0);
    try {
      await receiver.until(() => new Set(receiver.events(id).map((event) => event.id)).size >= log.length);
      // The post the application never answered may come again (it may have been taken): nothing is missing.
      const ids = receiver.events(id).map((event) => event.id);
      expect([...new Set(ids)]).toEqual(log);
    } finally {
      await second.stop();
    }
  });

  it('posts after a restart what a crash left unposted', async () => {
    const dataDir = join(root, 'crash');
    const first = await startServer(dataDir, 60_000);
    const id = await startConversation(first.url);
    for (let i = 0; i < 3; i++) await send(first.url, id, `before the crash ${i}`);
    const log = await logIds(first.url, id);
    await first.kill();
    expect(receiver.events(id)).toEqual([]);

    const second = await startServer(dataDir, 0);
    try {
      await receiver.until(() => receiver.events(id).length >= log.length);
      expect(receiver.events(id).map((event) => event.id)).toEqual(log);
      expect(receiver.infos(id).length).toBeGreaterThanOrEqual(1);
    } finally {
      await second.stop();
    }
  });
});
