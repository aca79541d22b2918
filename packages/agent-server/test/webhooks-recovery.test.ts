import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { buildAgentServer } from '../src/index.ts';
import { type EventBody, type Page, call, createConversation, eventually, sendMessage } from './support/http.ts';
import { startTestServer } from './support/server.ts';
import { testServerPerFile } from './support/shared-server.ts';
import { webhookReceiverPerFile } from './support/webhook-receiver.ts';

/** Webhooks lose nothing and repeat nothing when the application fails, is down, or the server restarts. */

const KEY = 'recovery-key';
const headers = { 'X-Session-API-Key': KEY };
const backoff = { firstMs: 10, maxMs: 100 };

const receiver = webhookReceiverPerFile();
const logLines: string[] = [];
const failures = () => logLines.filter((line) => line.includes('webhook post failed')).length;

const server = testServerPerFile(() => ({
  sessionApiKeys: [KEY],
  webhooks: { baseUrl: receiver.baseUrl, flushMs: 5, batchSize: 4, backoff },
  logLevel: 'warn',
  logStream: { write: (line: string) => logLines.push(line) },
}));

const start = async (base = server.url) => (await createConversation(base, {}, headers)).id;

async function send(id: string, text: string, base = server.url): Promise<string> {
  await sendMessage(base, id, text, { headers });
  const events = await logEvents(id, base);
  return (events.findLast((event) => JSON.stringify(event).includes(text)) as EventBody).id;
}

async function logEvents(id: string, base = server.url): Promise<EventBody[]> {
  const reply = await call<Page<EventBody>>(base, `/api/conversations/${id}/events/search?limit=100`, { headers });
  expect(reply.status, reply.text).toBe(200);
  return reply.body.items;
}

/** Waits until the receiver has the whole log of the conversation; its events must be the log, once each. */
async function expectAllDelivered(id: string, base = server.url): Promise<void> {
  const log = (await logEvents(id, base)).map((event) => event.id);
  await receiver.until(() => receiver.events(id).length >= log.length);
  expect(receiver.events(id).map((event) => event.id)).toEqual(log);
}

describe('webhook delivery', () => {
  it('retries failed posts (5xx, 429) and then delivers everything once, in order', async () => {
    const id = await start();
    await receiver.until(() => receiver.infos(id).length === 1);
    const before = receiver.attempts;
    receiver.failNext(503, 500, 429, 502);
    for (let i = 0; i < 10; i++) await send(id, `retried ${i}`);
    await expectAllDelivered(id);
    expect(receiver.attempts - before).toBeGreaterThanOrEqual(4 + Math.ceil(10 / 4));
    expect(failures()).toBeGreaterThanOrEqual(4);
  });

  it('drops a batch the application refuses (4xx) and goes on with the next', async () => {
    const id = await start();
    await receiver.until(() => receiver.infos(id).length === 1);
    const before = receiver.attempts;
    receiver.failNext(400);
    const refused = await send(id, 'refused for good');
    await receiver.until(() => receiver.attempts > before);
    const kept = await send(id, 'delivered after');
    await receiver.until(() => receiver.events(id).some((event) => event.id === kept));
    expect(receiver.events(id).map((event) => event.id)).not.toContain(refused);
    expect(logLines.some((line) => line.includes('webhook post refused') && line.includes(id))).toBe(true);
  });

  it('catches up from its cursor when the application comes back after being down', async () => {
    const id = await start();
    await receiver.until(() => receiver.infos(id).length === 1);
    await receiver.stop();
    const before = failures();
    for (let i = 0; i < 9; i++) await send(id, `while down ${i}`);
    // Several tries failed (connection refused) before the application is back.
    await eventually(() => failures() >= before + 3);
    await receiver.start();
    await expectAllDelivered(id);
  });

  it('posts after a restart what a stop left undelivered', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'bosun-webhooks-restart-'));
    const settings = { baseUrl: receiver.baseUrl, flushMs: 5, batchSize: 4, backoff, closeTimeoutMs: 200 };
    try {
      const first = await startTestServer({ dataDir, sessionApiKeys: [KEY], webhooks: settings });
      const id = await start(first.url);
      await receiver.until(() => receiver.infos(id).length === 1);
      await receiver.stop();
      for (let i = 0; i < 6; i++) await send(id, `before the stop ${i}`, first.url);
      await first.close();
      await receiver.start();
      expect(receiver.events(id)).toEqual([]);

      const second = await startTestServer({ dataDir, sessionApiKeys: [KEY], webhooks: settings });
      try {
        await expectAllDelivered(id, second.url);
        const post = receiver.accepted.find((p) => p.path === `/hooks/events/${id}`);
        expect(post?.headers['x-session-api-key']).toBe(KEY);
      } finally {
        await second.close();
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('never logs the session key', () => {
    expect(logLines.join('\n')).not.toContain(KEY);
  });
});

describe('webhook settings', () => {
  it('refuses a base URL that is not http(s)', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'bosun-webhooks-bad-'));
    try {
      for (const baseUrl of ['ftp://example.com/hooks', 'not a url', 'http://example.com/hooks?x=1']) {
        await expect(buildAgentServer({ dataDir, webhooks: { baseUrl } })).rejects.toThrow(/webhook_base_url/);
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('stops `bosun agent-server` before it starts, naming the key', async () => {
    const cli = fileURLToPath(new URL('../../cli/bin/bosun.js', import.meta.url));
    const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('BOSUN_')));
    const refused = await new Promise<{ code: number | null; output: string }>((resolve) => {
      const child = execFile(
        process.execPath,
        [cli, 'agent-server', '--port', '0', '--data-dir', join(tmpdir(), `bosun-never-${randomUUID()}`)],
        { env: { ...env, BOSUN_WEBHOOK_BASE_URL: 'ftp://app.example.com/hooks', BOSUN_WEBHOOK_BATCH_SIZE: '0' } },
        (_error, stdout, stderr) => resolve({ code: child.exitCode, output: stdout + stderr }),
      );
    });
    expect(refused.code).toBe(2);
    expect(refused.output).toContain(
      "BOSUN_WEBHOOK_BASE_URL: must be an http:// or https:// URL without a query, a fragment or credentials, got 'ftp://app.example.com/hooks'",
    );
    expect(refused.output).toContain("BOSUN_WEBHOOK_BATCH_SIZE: must be an integer from 1 to 1000, got '0'");
  });
});
