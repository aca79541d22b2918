import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type ServerProcess, spawnServer } from './support/server-process.ts';
import { startRequest } from './support/server.ts';

/*
 * A real server process takes user messages from concurrent senders and is killed with SIGKILL at a random
 * moment, then restarted on the same data dir, several times over. Every message it acknowledged must be in the
 * log exactly once, in each sender's order; a message that got no answer may be there, but never twice.
 */
const CYCLES = 4;
const SENDERS = 12;
const MESSAGE = /^msg-s(\d+)-(\d+)$/;

interface Sender {
  /** Next sequence number this sender will use; sequence numbers are never reused, across cycles too. */
  next: number;
  /** Messages whose POST was answered 2xx: they must be in the log exactly once. */
  acked: Set<number>;
  /** Messages sent without an answer (the server died): in the log at most once. */
  unanswered: Set<number>;
}

interface LoggedEvent {
  id: string;
  kind: string;
  source?: string;
  llm_message?: { content: { type: string; text?: string }[] };
}

let server: ServerProcess | undefined;
let dataDir: string | undefined;
afterAll(async () => {
  await server?.kill();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

async function post(url: string, body: unknown): Promise<Response> {
  return fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

/** Sends messages one after the other until `stopped()`, or until the server stops answering. */
async function send(url: string, index: number, sender: Sender, stopped: () => boolean, errors: string[]) {
  while (!stopped()) {
    const n = sender.next++;
    let response: Response;
    try {
      response = await post(url, { content: [{ type: 'text', text: `msg-s${index}-${n}` }] });
      await response.arrayBuffer();
    } catch {
      sender.unanswered.add(n);
      return;
    }
    if (response.ok) sender.acked.add(n);
    else errors.push(`msg-s${index}-${n}: HTTP ${response.status}`);
  }
}

/** Reads the whole log page by page; checks it against the count and against what the senders were told. */
async function verifyLog(url: string, conversationId: string, senders: Sender[], context: string) {
  const base = `${url}/api/conversations/${conversationId}`;
  const info = await fetch(base);
  expect(info.status, context).toBe(200);
  expect(((await info.json()) as { id: string }).id, context).toBe(conversationId);

  const events: LoggedEvent[] = [];
  let pageId: string | null = null;
  do {
    const query = `limit=100${pageId ? `&page_id=${pageId}` : ''}`;
    const response = await fetch(`${base}/events/search?${query}`);
    expect(response.status, context).toBe(200);
    const page = (await response.json()) as { items: LoggedEvent[]; next_page_id: string | null };
    events.push(...page.items);
    pageId = page.next_page_id;
  } while (pageId);

  const count = await fetch(`${base}/events/count`);
  expect(count.status, context).toBe(200);
  expect(await count.json(), context).toBe(events.length);
  expect(new Set(events.map((event) => event.id)).size, `${context}: event ids are unique`).toBe(events.length);

  const logged = senders.map(() => [] as number[]);
  for (const event of events) {
    if (event.kind !== 'MessageEvent' || event.source !== 'user') continue;
    const match = MESSAGE.exec(event.llm_message?.content[0]?.text ?? '');
    if (!match) continue;
    logged[Number(match[1])]?.push(Number(match[2]));
  }
  senders.forEach((sender, index) => {
    const seen = logged[index] as number[];
    const who = `${context}, sender ${index}`;
    // Strictly increasing: in the order sent and never twice.
    for (let i = 1; i < seen.length; i++) {
      expect((seen[i] as number) > (seen[i - 1] as number), `${who}: ${seen[i - 1]} then ${seen[i]}`).toBe(true);
    }
    const present = new Set(seen);
    const lost = [...sender.acked].filter((n) => !present.has(n));
    expect(lost, `${who}: acknowledged messages missing from the log`).toEqual([]);
    const phantoms = seen.filter((n) => !sender.acked.has(n) && !sender.unanswered.has(n));
    expect(phantoms, `${who}: messages in the log that were never sent`).toEqual([]);
  });
  return events;
}

describe('durability across SIGKILL', () => {
  it('keeps every acknowledged message exactly once, in order, through repeated kill and restart', async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'bosun-durability-'));
    const conversationId = randomUUID();
    server = await spawnServer(dataDir);
    expect(
      (await post(`${server.url}/api/conversations`, startRequest({ conversation_id: conversationId }))).status,
    ).toBe(201);

    const senders: Sender[] = Array.from({ length: SENDERS }, () => ({
      next: 0,
      acked: new Set<number>(),
      unanswered: new Set<number>(),
    }));
    const errors: string[] = [];
    const killDelays: number[] = [];
    let acknowledged = 0;

    for (let cycle = 1; cycle <= CYCLES; cycle++) {
      const current = server;
      const eventsUrl = `${current.url}/api/conversations/${conversationId}/events`;
      let killed = false;
      let stillSending = senders.length;
      const sending = senders.map((sender, index) =>
        send(eventsUrl, index, sender, () => killed, errors).finally(() => stillSending--),
      );
      // Kill at a random moment once messages flow (the first requests of a fresh process are slow).
      const flowing = () => senders.reduce((sum, sender) => sum + sender.acked.size, 0) > acknowledged;
      while (!flowing() && errors.length === 0 && stillSending > 0) {
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      const delay = 100 + Math.floor(Math.random() * 500);
      killDelays.push(delay);
      await new Promise((resolve) => setTimeout(resolve, delay));
      killed = true;
      await current.kill();
      await Promise.all(sending);
      expect(errors, `cycle ${cycle}: non-2xx answers`).toEqual([]);

      server = await spawnServer(dataDir);
      const context = `cycle ${cycle} (killed after ${killDelays.join(', ')} ms)`;
      await verifyLog(server.url, conversationId, senders, context);
      const total = senders.reduce((sum, sender) => sum + sender.acked.size, 0);
      expect(total, `${context}: the server acknowledged messages this cycle`).toBeGreaterThan(acknowledged);
      acknowledged = total;
    }

    // After the last restart the conversation still takes messages and serves them.
    const base = `${server.url}/api/conversations/${conversationId}`;
    const before = (await (await fetch(`${base}/events/count`)).json()) as number;
    const sent = await post(`${base}/events`, { content: [{ type: 'text', text: 'after-restart' }] });
    expect(sent.status).toBe(200);
    expect(await (await fetch(`${base}/events/count`)).json()).toBe(before + 1);
    const last = (await (await fetch(`${base}/events/search?sort_order=TIMESTAMP_DESC&limit=1`)).json()) as {
      items: LoggedEvent[];
    };
    expect(last.items[0]?.llm_message?.content[0]?.text).toBe('after-restart');
    await verifyLog(server.url, conversationId, senders, 'after the last restart');
  }, 180_000);
});
