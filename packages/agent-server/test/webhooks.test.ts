import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { type LlmReplay, startLlmReplay } from '@bosun/llm-replay';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ConversationInfoBody,
  type EventBody,
  type Page,
  call,
  createConversation,
  sendMessage,
} from './support/http.ts';
import { startTestServer } from './support/server.ts';
import { testServerPerFile } from './support/shared-server.ts';
import { WebhookReceiver, webhookReceiverPerFile } from './support/webhook-receiver.ts';

/** The agent server posts every committed event, and each conversation's info when it changes, to the app. */

const KEY = 'webhook-session-key';
const LLM_KEY = 'sk-webhook-llm-secret';
const headers = { 'X-Session-API-Key': KEY };

let replay: LlmReplay;
const logLines: string[] = [];

beforeAll(async () => {
  replay = await startLlmReplay({
    script: {
      turns: [
        { content: 'Looking.', tool_calls: [{ name: 'think', arguments: { thought: 'nothing to do' } }] },
        { tool_calls: [{ name: 'finish', arguments: { message: 'All done.' } }] },
      ],
    },
  });
});
afterAll(async () => {
  await replay?.close();
});
const receiver = webhookReceiverPerFile();
const server = testServerPerFile(() => ({
  runner: undefined,
  sessionApiKeys: [KEY, 'second-key'],
  webhooks: { baseUrl: `${receiver.baseUrl}/`, flushMs: 30, batchSize: 16 },
  logLevel: 'info',
  logStream: { write: (line: string) => logLines.push(line) },
}));

const start = (extra: Record<string, unknown> = {}) =>
  createConversation(
    server.url,
    { agent: { llm: { model: 'openai/replay', base_url: replay.baseUrl, api_key: LLM_KEY }, tools: [] }, ...extra },
    headers,
  );
const send = (id: string, text: string, run = false) => sendMessage(server.url, id, text, { run, headers });

/** The ids of the conversation's log, in order, as the server serves them. */
async function logIds(id: string): Promise<string[]> {
  const reply = await call<Page<EventBody>>(server.url, `/api/conversations/${id}/events/search?limit=100`, {
    headers,
  });
  expect(reply.status, reply.text).toBe(200);
  expect(reply.body.next_page_id).toBeNull();
  return reply.body.items.map((event) => event.id);
}

/** Waits until the receiver holds as many events of the conversation as its log, then returns both. */
async function delivered(id: string): Promise<{ posted: string[]; log: string[] }> {
  const log = await logIds(id);
  await receiver.until(() => receiver.events(id).length >= log.length);
  return { posted: receiver.events(id).map((event) => event.id), log };
}

describe('webhooks', () => {
  it("posts a run's events in log order, exactly the committed ones, then the info once finished", async () => {
    const conversation = await start();
    // Only the newest info is posted: the first one is `idle` only if it went before the run started.
    await receiver.until(() => receiver.infos(conversation.id).length === 1);
    await send(conversation.id, 'Please finish.', true);
    await receiver.until(() => receiver.infos(conversation.id).some((info) => info.execution_status === 'finished'));

    const { posted, log } = await delivered(conversation.id);
    expect(posted).toEqual(log);
    const kinds = receiver.events(conversation.id).map((event) => event.kind);
    expect(kinds).toContain('MessageEvent');
    expect(kinds).toContain('ActionEvent');
    expect(kinds).toContain('ObservationEvent');
    // Every event as the server serves it (the same JSON), none of them a socket-only snapshot.
    const served = await call<EventBody>(server.url, `/api/conversations/${conversation.id}/events/${log[0]}`, {
      headers,
    });
    expect(receiver.events(conversation.id)[0]).toEqual(served.body);

    const mine = receiver.accepted.filter(
      (post) =>
        post.path === `/hooks/events/${conversation.id}` || (post.body as { id?: string }).id === conversation.id,
    );
    for (const post of mine) {
      expect(post.headers['x-session-api-key']).toBe(KEY);
      expect(post.headers['content-type']).toBe('application/json');
    }
    // The dashed id, as in the server's own URLs.
    expect(mine.some((post) => post.path === `/hooks/events/${conversation.id}`)).toBe(true);
    // The conversation is announced before its first events.
    expect(mine[0]?.path).toBe('/hooks/conversations');
    expect(JSON.stringify(receiver.accepted)).not.toContain(LLM_KEY);

    // The info is what GET /api/conversations/{id} answers: the newest one, after the run's events.
    const infos = receiver.infos(conversation.id);
    const last = infos[infos.length - 1] as ConversationInfoBody;
    const current = await call<ConversationInfoBody>(server.url, `/api/conversations/${conversation.id}`, {
      headers,
    });
    expect(last).toEqual(current.body);
    expect(last.event_count).toBe(log.length);
    expect(last.agent.llm.api_key).toBe('**********');
    const statuses = infos.map((info) => info.execution_status);
    expect(statuses[0]).toBe('idle');
    expect(statuses).toContain('finished');
    const finishedAt = mine.findIndex(
      (post) => (post.body as { execution_status?: string }).execution_status === 'finished',
    );
    const lastEventsAt = mine.findLastIndex((post) => post.path.startsWith('/hooks/events/'));
    expect(finishedAt).toBeGreaterThan(lastEventsAt);
  });

  it('sends a burst in few posts, each at most webhook_batch_size events', async () => {
    const conversation = await start();
    await receiver.until(() => receiver.infos(conversation.id).length === 1);
    // The first post is held: what is committed meanwhile waits, and then goes in full batches.
    const release = receiver.hold();
    // More than the outbox keeps in memory (4 batches): the rest is read back from the log.
    await Promise.all(Array.from({ length: 80 }, (_, i) => send(conversation.id, `burst ${i}`)));
    await receiver.until(() => receiver.waiting > 0);
    release();
    const { posted, log } = await delivered(conversation.id);
    expect(posted).toEqual(log);
    const posts = receiver.accepted.filter((post) => post.path === `/hooks/events/${conversation.id}`);
    expect(posts.length).toBeGreaterThanOrEqual(5);
    expect(posts.length).toBeLessThanOrEqual(7);
    for (const post of posts) expect((post.body as unknown[]).length).toBeLessThanOrEqual(16);
  });

  it('posts the info when the title changes, and a last one (deleting) when the conversation is deleted', async () => {
    const conversation = await start();
    await receiver.until(() => receiver.infos(conversation.id).length === 1);
    const renamed = await call(server.url, `/api/conversations/${conversation.id}`, {
      method: 'PATCH',
      json: { title: 'Renamed by hand' },
      headers,
    });
    expect(renamed.status).toBe(200);
    await receiver.until(() => receiver.infos(conversation.id).some((info) => info.title === 'Renamed by hand'));
    const deleted = await call(server.url, `/api/conversations/${conversation.id}`, { method: 'DELETE', headers });
    expect(deleted.status).toBe(200);
    await receiver.until(() => receiver.infos(conversation.id).some((info) => info.execution_status === 'deleting'));
    expect(receiver.infos(conversation.id).map((info) => info.execution_status)).toEqual(['idle', 'idle', 'deleting']);
  });

  it('never logs the session key', () => {
    expect(logLines.length).toBeGreaterThan(0);
    expect(logLines.join('\n')).not.toContain(KEY);
  });
});

describe('webhooks not configured', () => {
  it('posts nothing and keeps no cursors', async () => {
    const quiet = await new WebhookReceiver().start();
    const plain = await startTestServer();
    try {
      const created = await createConversation(plain.url);
      await sendMessage(plain.url, created.id, 'hello');
      expect(existsSync(join(plain.dataDir, 'webhooks.sqlite'))).toBe(false);
    } finally {
      // Closing flushes whatever a sender would have had: after it, nothing can be on its way.
      await plain.close();
      await quiet.stop();
    }
    expect(quiet.attempts).toBe(0);
  });
});
