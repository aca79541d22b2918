/**
 * Fan-out: 100 subscribers follow one conversation of a server running in its own process (each its own
 * WebSocket, through the typed client's `followEvents`), while a publisher appends N user messages through POST
 * (a window of requests in flight). Each message carries the
 * time it was sent; each subscriber notes when it arrives. Reports frames delivered per second across all
 * subscribers and the latency from the POST being sent (and being answered) to each subscriber receiving it.
 * Env: SUBSCRIBERS (100), EVENTS (5000), IN_FLIGHT (16: publisher's concurrent POSTs).
 * Run: npm run bench:agent-server-fanout
 */
import { AgentServerClient } from '@bosun/client';
import type { StoredEvent } from '@bosun/protocol';
import { createConversation } from './support/http.ts';
import { spawnServer, tempDataDir } from './support/server-process.ts';
import { formatMs, formatRate, hrMs } from './support/stats.ts';

const SUBSCRIBERS = Number(process.env.SUBSCRIBERS ?? 100);
const EVENTS = Number(process.env.EVENTS ?? 5000);
const IN_FLIGHT = Number(process.env.IN_FLIGHT ?? 16);
const MESSAGE = /^fanout (\d+) sent ([\d.]+)$/;

const data = await tempDataDir('fanout');
const server = await spawnServer(data.dir);
const api = new AgentServerClient({ baseUrl: server.url });
const unsubscribe = new AbortController();

const textOf = (event: StoredEvent) =>
  event.kind === 'MessageEvent' && event.llm_message.content[0]?.type === 'text'
    ? event.llm_message.content[0].text
    : '';

try {
  const conversationId = await createConversation(api);

  const answeredAt = new Float64Array(EVENTS);
  const fromSent: number[] = [];
  const receipts: { n: number; at: number }[] = [];
  let frames = 0;
  let firstFrameAt = 0;
  let lastFrameAt = 0;
  /** The order each subscriber saw; they must all see the log's order, each message once. */
  const orders: number[][] = [];
  let remaining = SUBSCRIBERS * EVENTS;
  let allReceived: () => void = () => undefined;
  let subscriberFailed: (error: unknown) => void = () => undefined;
  const done = new Promise<void>((resolve, reject) => {
    allReceived = resolve;
    subscriberFailed = reject;
  });

  // Subscribe everyone; each is connected once its `full_state` snapshot has come.
  const subscribe = async (order: number[], connected: () => void) => {
    const events = api.followEvents(conversationId, { signal: unsubscribe.signal, onSnapshot: connected });
    for await (const event of events) {
      const at = hrMs();
      const match = MESSAGE.exec(textOf(event));
      if (!match) continue;
      const n = Number(match[1]);
      order.push(n);
      frames++;
      if (frames === 1) firstFrameAt = at;
      lastFrameAt = at;
      fromSent.push(at - Number(match[2]));
      receipts.push({ n, at });
      if (--remaining === 0) allReceived();
    }
  };
  await Promise.all(
    Array.from({ length: SUBSCRIBERS }, () => {
      const order: number[] = [];
      orders.push(order);
      return new Promise<void>((connected, failed) => {
        subscribe(order, connected).catch((error: unknown) => {
          failed(error);
          subscriberFailed(error);
        });
      });
    }),
  );
  console.log(`${SUBSCRIBERS} subscribers connected; publishing ${EVENTS} messages with ${IN_FLIGHT} POSTs in flight`);

  let next = 0;
  const publishStart = hrMs();
  // POSTs from one publisher are answered in order of commit; `n` orders them by send time.
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (next < EVENTS) {
        const n = next++;
        const text = `fanout ${n} sent ${hrMs().toFixed(3)}`;
        await api.post('/api/conversations/{conversation_id}/events', {
          params: { conversation_id: conversationId },
          body: { content: [{ type: 'text', text }] },
        });
        answeredAt[n] = hrMs();
      }
    }),
  );
  const publishSeconds = (hrMs() - publishStart) / 1000;
  const timeout = setTimeout(() => allReceived(), 60_000);
  await done;
  clearTimeout(timeout);
  const fromAnswered = receipts.map(({ n, at }) => at - (answeredAt[n] as number));
  const reference = (orders[0] ?? []).join(',');
  const disagreeing = orders.filter((order) => order.join(',') !== reference).length;
  const duplicated = orders.filter((order) => new Set(order).size !== order.length).length;

  console.log(`\npublished: ${formatRate(EVENTS, publishSeconds, 'appends')}`);
  console.log(
    `delivered: ${formatRate(frames, (lastFrameAt - firstFrameAt) / 1000, 'frames')} across ${SUBSCRIBERS} subscribers` +
      ` (${frames === SUBSCRIBERS * EVENTS ? 'all' : `MISSING ${SUBSCRIBERS * EVENTS - frames} of`} ${(SUBSCRIBERS * EVENTS).toLocaleString('en-US')})`,
  );
  console.log(
    `order: ${disagreeing === 0 ? 'every subscriber saw the same order' : `${disagreeing} subscribers saw another order`}` +
      `, ${duplicated === 0 ? 'no duplicates' : `${duplicated} subscribers got duplicates`}`,
  );
  console.log(formatMs('latency POST sent -> subscriber received', fromSent));
  console.log(formatMs('latency POST answered -> subscriber received (negative: before the answer)', fromAnswered));
} finally {
  unsubscribe.abort();
  await server.stop();
  await data.remove();
}
