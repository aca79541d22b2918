/**
 * Durable appends: 50 concurrent clients (keep-alive connections, one request in flight each) POST user messages
 * to /api/conversations/{id}/events of a server running in its own process. A 2xx means the message is durable
 * (SQLite WAL, one fsync per group-committed batch). Reports appends/s, latency percentiles and server CPU per
 * append. Targets: >= 20,000/s with an ack p50 <= 2 ms (the client here is one Node process: on a small machine
 * it can be the limit, so compare the server CPU per append too).
 * Env: CLIENTS (50), SECONDS (10), CONVERSATIONS (1: all clients on one conversation).
 * Run: npm run bench:agent-server-appends
 */
import { createConversation, httpRequest, keepAliveAgent } from './support/http.ts';
import { cpuSeconds, spawnServer, tempDataDir } from './support/server-process.ts';
import { formatMs, formatRate, hrMs, percentile, target } from './support/stats.ts';

const CLIENTS = Number(process.env.CLIENTS ?? 50);
const SECONDS = Number(process.env.SECONDS ?? 10);
const WARMUP_SECONDS = 2;
const CONVERSATIONS = Number(process.env.CONVERSATIONS ?? 1);

const data = await tempDataDir('appends');
const server = await spawnServer(data.dir);
const agent = keepAliveAgent(CLIENTS);

try {
  const conversations: string[] = [];
  for (let i = 0; i < CONVERSATIONS; i++) conversations.push(await createConversation(agent, server.url));

  const latencies: number[] = [];
  let completed = 0;
  let failures = 0;
  let phase: 'warmup' | 'measure' | 'done' = 'warmup';

  async function client(index: number): Promise<void> {
    const eventsUrl = `${server.url}/api/conversations/${conversations[index % CONVERSATIONS]}/events`;
    for (let n = 0; phase !== 'done'; n++) {
      const body = { content: [{ type: 'text', text: `client ${index} message ${n}` }] };
      const start = hrMs();
      const result = await httpRequest(agent, eventsUrl, 'POST', body);
      const elapsed = hrMs() - start;
      if (phase !== 'measure') continue;
      if (result.status === 200) {
        completed++;
        latencies.push(elapsed);
      } else failures++;
    }
  }

  console.log(
    `${CLIENTS} clients, ${CONVERSATIONS} conversation(s), ${WARMUP_SECONDS} s warm-up then ${SECONDS} s measured`,
  );
  const running = Array.from({ length: CLIENTS }, (_, i) => client(i));
  await new Promise((resolve) => setTimeout(resolve, WARMUP_SECONDS * 1000));
  phase = 'measure';
  const start = hrMs();
  const serverCpuStart = await cpuSeconds(server.pid);
  await new Promise((resolve) => setTimeout(resolve, SECONDS * 1000));
  phase = 'done';
  const seconds = (hrMs() - start) / 1000;
  const serverCpu = (await cpuSeconds(server.pid)) - serverCpuStart;
  await Promise.all(running);

  let stored = 0;
  for (const id of conversations) {
    const count = await httpRequest(agent, `${server.url}/api/conversations/${id}/events/count`, 'GET');
    stored += Number(count.body);
  }

  console.log(`\ndurable appends: ${formatRate(completed, seconds, 'appends')}, ${failures} failed`);
  console.log(formatMs('latency', latencies));
  console.log(
    `server CPU: ${((serverCpu / seconds) * 100).toFixed(0)}% of a core, ${((serverCpu / completed) * 1e6).toFixed(0)} µs per append`,
  );
  console.log(`events in the log(s) after the run: ${stored.toLocaleString('en-US')} (warm-up included)`);
  const rate = completed / seconds;
  console.log(target('appends/s >= 20,000', rate >= 20_000, `${Math.round(rate).toLocaleString('en-US')}/s`));
  const p50 = percentile(latencies, 50);
  console.log(target('ack p50 <= 2 ms', p50 <= 2, `${p50.toFixed(2)} ms`));
} finally {
  agent.destroy();
  await server.stop();
  await data.remove();
}
