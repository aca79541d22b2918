/**
 * Batch get over HTTP: a conversation of 100,000 events, then 100 random event ids fetched many times, one request
 * at a time, through the typed client (`AgentServerClient.getEvents`: `POST .../events/batch`, the body parsed)
 * and, interleaved with it, through raw `node:http` (`GET .../events` with a JSON body, the body left unparsed),
 * so the client's own cost shows. Reports the server time of each request (Fastify's `reply.elapsedTime` in an
 * onResponse hook: from the request arriving to the response sent) and the round trip of each way.
 * Target: median server time under 2 ms.
 * Run: npm run bench:agent-server-batch-get
 */
import { buildAgentServer } from '@bosun/agent-server';
import { AgentServerClient } from '@bosun/client';
import { createConversation, httpRequest, keepAliveAgent } from './support/http.ts';
import { tempDataDir } from './support/server-process.ts';
import { formatMs, hrMs, percentile, target } from './support/stats.ts';

const EVENTS = Number(process.env.EVENTS ?? 100_000);
const SEED_BATCH = 1000;
const IDS_PER_REQUEST = 100;
const REQUESTS = Number(process.env.REQUESTS ?? 2000);
const WARMUP = 200;

const data = await tempDataDir('batch-get');
const server = await buildAgentServer({ dataDir: data.dir });
const serverMs = { client: [] as number[], raw: [] as number[] };
let recording: keyof typeof serverMs | undefined;
server.app.addHook('onResponse', async (request, reply) => {
  if (recording && request.url.includes('/events')) serverMs[recording].push(reply.elapsedTime);
});
const url = await server.app.listen({ host: '127.0.0.1', port: 0 });
const client = new AgentServerClient({ baseUrl: url });
const agent = keepAliveAgent(1);

try {
  const conversationId = await createConversation(client);
  const conversation = server.service.get(conversationId);
  if (!conversation) throw new Error('conversation not loaded');

  const filler = 'The quick brown fox jumps over the lazy dog. '.repeat(6);
  const ids: string[] = [];
  const seedStart = hrMs();
  for (let i = 0; i < EVENTS; i += SEED_BATCH) {
    const batch = Array.from({ length: Math.min(SEED_BATCH, EVENTS - i) }, (_, j) => ({
      kind: 'MessageEvent' as const,
      source: (j % 2 ? 'agent' : 'user') as 'agent' | 'user',
      llm_message: {
        role: (j % 2 ? 'assistant' : 'user') as 'assistant' | 'user',
        content: [{ type: 'text' as const, text: `event ${i + j}: ${filler}` }],
        thinking_blocks: [],
      },
      activated_skills: [],
      extended_content: [],
    }));
    const stored = await conversation.append(batch as never);
    for (const event of stored) ids.push(event.id as string);
  }
  const seedSeconds = (hrMs() - seedStart) / 1000;
  console.log(`seeded ${ids.length.toLocaleString('en-US')} events in ${seedSeconds.toFixed(1)} s`);

  const eventsUrl = `${url}/api/conversations/${conversationId}/events`;
  const randomIds = () =>
    Array.from({ length: IDS_PER_REQUEST }, () => ids[Math.floor(Math.random() * ids.length)] as string);
  const roundTripMs = { client: [] as number[], raw: [] as number[], rawParsed: [] as number[] };
  let bytes = 0;
  for (let i = 0; i < WARMUP + REQUESTS; i++) {
    const measured = i >= WARMUP;
    const asked = randomIds();
    recording = measured ? 'client' : undefined;
    let start = hrMs();
    const events = await client.getEvents(conversationId, asked);
    let elapsed = hrMs() - start;
    if (events.length !== IDS_PER_REQUEST || events.some((event, j) => event?.id !== asked[j])) {
      throw new Error('missing events');
    }
    if (measured) roundTripMs.client.push(elapsed);

    recording = measured ? 'raw' : undefined;
    start = hrMs();
    const result = await httpRequest(agent, eventsUrl, 'GET', JSON.stringify(randomIds()));
    elapsed = hrMs() - start;
    if (result.status !== 200) throw new Error(`batch get: HTTP ${result.status} ${result.body.slice(0, 200)}`);
    if (!measured) continue;
    roundTripMs.raw.push(elapsed);
    start = hrMs();
    JSON.parse(result.body);
    roundTripMs.rawParsed.push(elapsed + hrMs() - start);
    bytes += result.body.length;
  }
  recording = undefined;

  console.log(
    `\nbatch get of ${IDS_PER_REQUEST} random ids from ${EVENTS.toLocaleString('en-US')} events, ${REQUESTS} requests` +
      ` each way (after ${WARMUP} warm-up), ${Math.round(bytes / REQUESTS / 1024)} KiB per response`,
  );
  console.log(formatMs('server time, client (POST .../events/batch)', serverMs.client));
  console.log(formatMs('server time, raw node:http (GET .../events)', serverMs.raw));
  console.log(formatMs('round trip, client (body parsed)', roundTripMs.client));
  console.log(formatMs('round trip, raw node:http (body unparsed)', roundTripMs.raw));
  console.log(formatMs('round trip, raw node:http + JSON.parse', roundTripMs.rawParsed));
  const overhead = percentile(roundTripMs.client, 50) - percentile(roundTripMs.rawParsed, 50);
  console.log(`client cost over raw node:http + JSON.parse at the median: ${(overhead * 1000).toFixed(0)} µs`);
  const median = percentile(serverMs.client, 50);
  console.log(target('median server time < 2 ms', median < 2, `${median.toFixed(3)} ms`));
} finally {
  agent.destroy();
  await server.close();
  await data.remove();
}
