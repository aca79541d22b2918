/**
 * Startup with a big catalog: a data dir with 10,000 conversations (a few events each), then the server process
 * is spawned and polled until GET /ready answers 200. Reports the time from spawn to that first 200 (target under
 * 400 ms), the server's CPU time until then (steadier than wall time on a shared machine) and its resident memory
 * at that moment (VmRSS), for 3 runs.
 * Env: CONVERSATIONS (10000), RUNS (3).
 * Run: npm run bench:agent-server-startup
 */
import { buildAgentServer } from '@bosun/agent-server';
import { AgentServerClient, BosunClientError } from '@bosun/client';
import { startRequest } from './support/http.ts';
import { buildBundle, cpuSeconds, freePort, residentMiB, spawnServer, tempDataDir } from './support/server-process.ts';
import { hrMs, target } from './support/stats.ts';

const CONVERSATIONS = Number(process.env.CONVERSATIONS ?? 10_000);
const RUNS = Number(process.env.RUNS ?? 3);
const MESSAGES_EACH = 3;
const PARALLEL = 200;

/** Seeds the catalog in-process: each conversation gets a few user messages (no runs: nothing calls an LLM). */
async function seed(dataDir: string): Promise<number> {
  const server = await buildAgentServer({ dataDir });
  const { app } = server;
  const one = async (i: number) => {
    const created = await app.inject({
      method: 'POST',
      url: '/api/conversations',
      payload: { ...startRequest(), title: `conversation ${i}` },
    });
    if (created.statusCode !== 201) throw new Error(`create: HTTP ${created.statusCode} ${created.body}`);
    const { id } = created.json() as { id: string };
    for (let m = 0; m < MESSAGES_EACH; m++) {
      const sent = await app.inject({
        method: 'POST',
        url: `/api/conversations/${id}/events`,
        payload: { content: [{ type: 'text', text: `message ${m} of conversation ${i}` }] },
      });
      if (sent.statusCode !== 200) throw new Error(`send: HTTP ${sent.statusCode} ${sent.body}`);
    }
  };
  for (let i = 0; i < CONVERSATIONS; i += PARALLEL) {
    await Promise.all(Array.from({ length: Math.min(PARALLEL, CONVERSATIONS - i) }, (_, j) => one(i + j)));
  }
  const events = server.store.db.prepare('SELECT count(*) AS n FROM events').get() as { n: number };
  await server.close();
  return events.n;
}

/** Whether `/ready` answers 200 (a 503 while starting, or no server yet: not ready). */
function isReady(client: AgentServerClient): Promise<boolean> {
  return client.ready().then(
    () => true,
    (error: unknown) => {
      if (error instanceof BosunClientError) return false;
      throw error;
    },
  );
}

const data = await tempDataDir('startup');
try {
  const seedStart = hrMs();
  const events = await seed(data.dir);
  console.log(
    `seeded ${CONVERSATIONS.toLocaleString('en-US')} conversations, ${events.toLocaleString('en-US')} events in ${(
      (hrMs() - seedStart) / 1000
    ).toFixed(1)} s`,
  );

  // Built before the clock starts: the first run would otherwise time the build too.
  await buildBundle();
  const results: { readyMs: number; cpuMs: number; listeningMs: number; rssMiB: number }[] = [];
  for (let run = 1; run <= RUNS; run++) {
    const port = await freePort();
    const spawnedAt = hrMs();
    const starting = spawnServer(data.dir, { port });
    const client = new AgentServerClient({ baseUrl: `http://127.0.0.1:${port}` });
    let readyMs = Number.NaN;
    for (;;) {
      if (await isReady(client)) {
        readyMs = hrMs() - spawnedAt;
        break;
      }
      if (hrMs() - spawnedAt > 30_000) throw new Error('server not ready within 30 s');
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    const server = await starting;
    const cpuMs = (await cpuSeconds(server.pid)) * 1000;
    const rssMiB = await residentMiB(server.pid);
    results.push({ readyMs, cpuMs, listeningMs: server.listeningMs, rssMiB });
    console.log(
      `run ${run}: spawn -> first 200 from /ready ${readyMs.toFixed(0)} ms` +
        ` ("listening" printed at ${server.listeningMs.toFixed(0)} ms), server CPU ${cpuMs.toFixed(0)} ms,` +
        ` VmRSS ${rssMiB.toFixed(1)} MiB`,
    );
    await server.stop();
  }
  const best = Math.min(...results.map((r) => r.readyMs));
  const worst = Math.max(...results.map((r) => r.readyMs));
  const sorted = results.map((r) => r.readyMs).sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)] as number;
  console.log(
    target(
      'spawn -> ready < 400 ms',
      worst < 400,
      `best ${best.toFixed(0)} ms, median ${median.toFixed(0)} ms, worst ${worst.toFixed(0)} ms`,
    ),
  );
} finally {
  await data.remove();
}
