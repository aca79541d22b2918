/**
 * Durable appends: 50 concurrent clients (one request in flight each, through the typed client's keep-alive
 * connections) POST user messages to /api/conversations/{id}/events of a server running in its own process. A 2xx means the message is durable
 * (SQLite WAL, one fsync per group-committed batch). Reports appends/s, latency percentiles and server CPU per
 * append. Targets: >= 20,000/s with an ack p50 <= 2 ms (the client here is one Node process: on a small machine
 * it can be the limit, so compare the server CPU per append too).
 * Env: CLIENTS (50), SECONDS (10), CONVERSATIONS (1: all clients on one conversation).
 * Run: npm run bench:agent-server-appends
 */
import { AgentServerClient, BosunApiError } from '@bosun/client';
import { createConversation } from './support/http.ts';
import { cpuSeconds, spawnServer, tempDataDir } from './support/server-process.ts';
import { formatMs, formatRate, hrMs, percentile, target } from './support/stats.ts';

const CLIENTS = Number(process.env.CLIENTS ?? 50);
const SECONDS = Number(process.env.SECONDS ?? 10);
const WARMUP_SECONDS = 2;
const CONVERSATIONS = Number(process.env.CONVERSATIONS ?? 1);

const data = await tempDataDir('appends');
const server = await spawnServer(data.dir);
const api = new AgentServerClient({ baseUrl: server.url });

try {
  const conversations: string[] = [];
  for (let i = 0; i < CONVERSATIONS; i++) conversations.push(await createConversation(api));

  const latencies: number[] = [];
  let completed = 0;
  let failures = 0;
  let phase: 'warmup' | 'measure' | 'done' = 'warmup';

  async function client(index: number): Promise<void> {
    const conversationId = conversations[index % CONVERSATIONS] as string;
    for (let n = 0; phase !== 'done'; n++) {
      const message = { content: [{ type: 'text' as const, text: `client ${index} message ${n}` }] };
      const start = hrMs();
      const sent = await api
        .post('/api/conversations/{conversation_id}/events', {
          params: { conversation_id: conversationId },
          body: message,
        })
        .then(
          () => true,
          (error: unknown) => {
            if (error instanceof BosunApiError) return false;
            throw error;
          },
        );
      const elapsed = hrMs() - start;
      if (phase !== 'measure') continue;
      if (sent) {
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
  for (const id of conversations)
    stored += await api.get('/api/conversations/{conversation_id}/events/count', { params: { conversation_id: id } });

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
  await server.stop();
  await data.remove();
}
