/**
 * Fan-out: 100 WebSocket subscribers follow one conversation of a server running in its own process, while a
 * publisher appends N user messages through POST (a window of requests in flight). Each message carries the
 * time it was sent; each subscriber notes when it arrives. Reports frames delivered per second across all
 * subscribers and the latency from the POST being sent (and being answered) to each subscriber receiving it.
 * Env: SUBSCRIBERS (100), EVENTS (5000), IN_FLIGHT (16: publisher's concurrent POSTs).
 * Run: npm run bench:agent-server-fanout
 */
import WebSocket from 'ws';
import { createConversation, httpRequest, keepAliveAgent } from './support/http.ts';
import { spawnServer, tempDataDir } from './support/server-process.ts';
import { formatMs, formatRate, hrMs } from './support/stats.ts';

const SUBSCRIBERS = Number(process.env.SUBSCRIBERS ?? 100);
const EVENTS = Number(process.env.EVENTS ?? 5000);
const IN_FLIGHT = Number(process.env.IN_FLIGHT ?? 16);
const MESSAGE = /"text":"fanout (\d+) sent ([\d.]+)"/;

const data = await tempDataDir('fanout');
const server = await spawnServer(data.dir);
const agent = keepAliveAgent(IN_FLIGHT);
const sockets: WebSocket[] = [];

try {
  const conversationId = await createConversation(agent, server.url);
  const socketUrl = `${server.url.replace(/^http/, 'ws')}/sockets/events/${conversationId}`;

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
  const done = new Promise<void>((resolve) => {
    allReceived = resolve;
  });

  // Subscribe everyone; the first frame of each socket is the `full_state` snapshot.
  await Promise.all(
    Array.from(
      { length: SUBSCRIBERS },
      () =>
        new Promise<void>((resolve, reject) => {
          const socket = new WebSocket(socketUrl);
          sockets.push(socket);
          const order: number[] = [];
          orders.push(order);
          let snapshot = true;
          socket.on('error', reject);
          socket.on('message', (raw: Buffer) => {
            if (snapshot) {
              snapshot = false;
              return resolve();
            }
            const at = hrMs();
            const match = MESSAGE.exec(raw.toString());
            if (!match) return;
            const n = Number(match[1]);
            order.push(n);
            frames++;
            if (frames === 1) firstFrameAt = at;
            lastFrameAt = at;
            fromSent.push(at - Number(match[2]));
            receipts.push({ n, at });
            if (--remaining === 0) allReceived();
          });
        }),
    ),
  );
  console.log(`${SUBSCRIBERS} subscribers connected; publishing ${EVENTS} messages with ${IN_FLIGHT} POSTs in flight`);

  const eventsUrl = `${server.url}/api/conversations/${conversationId}/events`;
  let next = 0;
  const publishStart = hrMs();
  // POSTs from one publisher are answered in order of commit; `n` orders them by send time.
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (next < EVENTS) {
        const n = next++;
        const body = `{"content":[{"type":"text","text":"fanout ${n} sent ${hrMs().toFixed(3)}"}]}`;
        const result = await httpRequest(agent, eventsUrl, 'POST', body);
        if (result.status !== 200) throw new Error(`POST: HTTP ${result.status} ${result.body}`);
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
  for (const socket of sockets) socket.terminate();
  agent.destroy();
  await server.stop();
  await data.remove();
}
