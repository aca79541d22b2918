/**
 * Start task to READY through the app: `POST /api/v1/app-conversations` (no repository, an initial message), then the
 * start task polled until READY — a new sandbox (the bundle's `bosun agent-server`, cold: started by the app's embedded
 * runtime under bubblewrap, network allowed to the model and the app only) started, skills set up, the conversation
 * started on it. The app server runs in this process on SQLite; the model is llm-replay.
 * Each round deletes its conversation (and so its sandbox) before the next.
 * WARM=1: the app keeps one sandbox started ahead (`sandbox_warm_pool_size` 1), and each round waits until it is
 * ready before starting: the start claims it instead of starting one.
 * AUTO_LOAD=n: the instance auto-loads n marketplaces (a Git host on loopback), each looked up (`git ls-remote`) by
 * the start; with CONCURRENT=k starts at once per round (one user), the app's lookups per start are printed too
 * (identical lookups at once share one; `marketplace_ref_ttl`, REF_TTL seconds, keeps the answer after).
 * Beside them: the same starts seen from another process (OUTSIDE rounds, a client polling the API), and the floor
 * no start goes under: `node -e 0`, bare and under bubblewrap. The machine may be shared: read ranges, not points.
 * Target: under 1 s (median) cold; goals 500 ms cold, 150 ms warm (p50, on a quiet machine, both vantage points).
 * Env: ROUNDS (8), OUTSIDE (4), POLL_MS (5), SANDBOX_ISOLATION (bubblewrap; unsafe-none: plain processes, for
 * comparison), WARM, AUTO_LOAD (0), CONCURRENT (1), REF_TTL (the setting's default).
 * Run: npm run bench:app-conversation-start
 */
import { loadavg } from 'node:os';
import { startAppStack, startThroughApp } from './support/app-stack.ts';
import { httpRequest, keepAliveAgent } from './support/http.ts';
import { type MarketplaceHost, startMarketplaceHost } from './support/marketplace-host.ts';
import { startFloor, startsFromOutside } from './support/start-probes.ts';
import { formatMs, hrMs, summarize, target } from './support/stats.ts';

const ROUNDS = Number(process.env.ROUNDS ?? 8);
const POLL_MS = Number(process.env.POLL_MS ?? 5);
const AUTO_LOAD = Number(process.env.AUTO_LOAD ?? 0);
const CONCURRENT = Number(process.env.CONCURRENT ?? 1);
const OUTSIDE = Number(process.env.OUTSIDE ?? 4);

const WARM = process.env.WARM === '1';

const host: MarketplaceHost | null = AUTO_LOAD > 0 ? await startMarketplaceHost(AUTO_LOAD) : null;
const config = host
  ? {
      git_github_url: host.url,
      git_allow_private_hosts: true,
      instance_marketplaces: host.instanceMarketplaces,
      ...(process.env.REF_TTL ? { marketplace_ref_ttl: Number(process.env.REF_TTL) } : {}),
    }
  : {};
const stack = await startAppStack('app-conversation-start', { warmPoolSize: WARM ? 1 : 0, config });
const runtime = stack.running.server.context.services?.sandboxRuntime.runtime;
const warmReady = async () => ((await runtime?.health())?.warm?.app ?? 0) > 0;
try {
  const agent = keepAliveAgent(CONCURRENT);
  const timings: number[] = [];
  const lookupsBefore = host?.refLookups() ?? 0;
  for (let round = 0; round < ROUNDS; round++) {
    while (WARM && !(await warmReady())) await new Promise((resolve) => setTimeout(resolve, 20));
    const starts = Array.from({ length: CONCURRENT }, async (_, index) => {
      const started = hrMs();
      const task = await startThroughApp(stack, agent, `round ${round}.${index}`, POLL_MS);
      timings.push(hrMs() - started);
      return task;
    });
    for (const task of await Promise.all(starts)) {
      const path = `${stack.running.url}/api/v1/app-conversations/${task.app_conversation_id}`;
      const removed = await httpRequest(agent, path, 'DELETE', undefined, stack.headers);
      if (removed.status !== 200) throw new Error(`DELETE app-conversation: HTTP ${removed.status} ${removed.body}`);
    }
  }
  agent.destroy();
  const outside: number[] = [];
  for (let round = 0; round < OUTSIDE; round++) {
    while (WARM && !(await warmReady())) await new Promise((resolve) => setTimeout(resolve, 20));
    outside.push(...(await startsFromOutside(stack.running.url, stack.headers, 1, POLL_MS)));
  }
  const isolation = process.env.SANDBOX_ISOLATION === 'unsafe-none' ? 'not isolated' : 'bubblewrap';
  const shape = `${WARM ? 'warm' : 'cold'}${CONCURRENT > 1 ? `, ${CONCURRENT} at once` : ''}`;
  const loads = host ? `, ${AUTO_LOAD} auto-loaded marketplaces` : '';
  console.log(formatMs(`start task -> READY (new sandbox, ${isolation}, ${shape}${loads}; SQLite)`, timings));
  if (outside.length) console.log(formatMs('  the same, seen by a client in another process', outside));
  const floor = startFloor();
  console.log(formatMs('  floor: node -e 0', floor.node));
  console.log(formatMs('  floor: node -e 0 under bubblewrap', floor.bwrap));
  console.log(
    `  load average (2 cores, shared): ${loadavg()
      .map((n) => n.toFixed(1))
      .join(' ')}`,
  );
  if (host) {
    // Each new sandbox's agent server fetches every marketplace once (AUTO_LOAD asks per start); the rest is the app's.
    const perStart = (host.refLookups() - lookupsBefore) / (ROUNDS * CONCURRENT) - AUTO_LOAD;
    console.log(`the app's git ls-remote per start: ${perStart.toFixed(2)} (${AUTO_LOAD} without sharing)`);
  }
  const { p50 } = summarize(timings);
  console.log(target('start task -> READY < 1 s (median)', p50 < 1000, `p50 ${p50.toFixed(1)} ms`));
  // The goals hold on a quiet machine, seen from this process and from a client's.
  const goal = WARM ? 150 : 500;
  const seen: [string, number[]][] = [
    ['in process', timings],
    ['from outside', outside],
  ];
  for (const [where, values] of seen.filter(([, values]) => values.length > 0)) {
    const median = summarize(values).p50;
    console.log(
      target(
        `goal: ${shape} start -> READY < ${goal} ms (p50, ${where})`,
        median < goal,
        `p50 ${median.toFixed(1)} ms`,
      ),
    );
  }
} finally {
  await stack.close();
  await host?.close();
}
