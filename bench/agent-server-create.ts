/**
 * Conversation create latency: one client (the typed client, a keep-alive connection) POSTs /api/conversations to a server running in
 * its own process, one request at a time, and waits for the 201 (the conversation is durable then). Reports the
 * latency percentiles and the server CPU per create. Target: median under 2 ms.
 * Env: CREATES (1000), WARMUP (100).
 * Run: npm run bench:agent-server-create
 */
import { AgentServerClient } from '@bosun/client';
import { startRequest } from './support/http.ts';
import { cpuSeconds, spawnServer, tempDataDir } from './support/server-process.ts';
import { formatMs, hrMs, percentile, target } from './support/stats.ts';

const CREATES = Number(process.env.CREATES ?? 1000);
const WARMUP = Number(process.env.WARMUP ?? 100);

const data = await tempDataDir('create');
const server = await spawnServer(data.dir);
const api = new AgentServerClient({ baseUrl: server.url });

try {
  async function create(): Promise<number> {
    const start = hrMs();
    await api.post('/api/conversations', { body: startRequest() });
    return hrMs() - start;
  }

  console.log(`${WARMUP} warm-up creates, then ${CREATES} measured, one at a time`);
  for (let i = 0; i < WARMUP; i++) await create();
  const latencies: number[] = [];
  const serverCpuStart = await cpuSeconds(server.pid);
  const start = hrMs();
  for (let i = 0; i < CREATES; i++) latencies.push(await create());
  const seconds = (hrMs() - start) / 1000;
  const serverCpu = (await cpuSeconds(server.pid)) - serverCpuStart;

  console.log(`\n${formatMs('create latency', latencies)}`);
  console.log(
    `server CPU: ${((serverCpu / seconds) * 100).toFixed(0)}% of a core, ${((serverCpu / CREATES) * 1e6).toFixed(0)} µs per create`,
  );
  const p50 = percentile(latencies, 50);
  console.log(target('create p50 < 2 ms', p50 < 2, `${p50.toFixed(2)} ms`));
} finally {
  await server.stop();
  await data.remove();
}
