/**
 * Start task to READY through the app: `POST /api/v1/app-conversations` (no repository, an initial message), then the
 * start task polled until READY — a new sandbox (the bundle's `bosun agent-server`, cold: started by the app's embedded
 * runtime under bubblewrap, network allowed to the model and the app only) started, skills set up, the conversation
 * started on it. The app server runs in this process on SQLite; the model is llm-replay.
 * Each round deletes its conversation (and so its sandbox) before the next.
 * WARM=1: the app keeps one sandbox started ahead (`sandbox_warm_pool_size` 1), and each round waits until it is
 * ready before starting: the start claims it instead of starting one.
 * Target: under 1 s (median) cold; warm, what the sandbox's start no longer costs.
 * Env: ROUNDS (8), POLL_MS (5), SANDBOX_ISOLATION (bubblewrap; unsafe-none: plain processes, for comparison), WARM.
 * Run: npm run bench:app-conversation-start
 */
import { startAppStack, startThroughApp } from './support/app-stack.ts';
import { httpRequest, keepAliveAgent } from './support/http.ts';
import { formatMs, hrMs, summarize, target } from './support/stats.ts';

const ROUNDS = Number(process.env.ROUNDS ?? 8);
const POLL_MS = Number(process.env.POLL_MS ?? 5);

const WARM = process.env.WARM === '1';

const stack = await startAppStack('app-conversation-start', { warmPoolSize: WARM ? 1 : 0 });
const runtime = stack.running.server.context.services?.sandboxRuntime.runtime;
const warmReady = async () => ((await runtime?.health())?.warm?.app ?? 0) > 0;
try {
  const agent = keepAliveAgent(1);
  const timings: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    while (WARM && !(await warmReady())) await new Promise((resolve) => setTimeout(resolve, 20));
    const started = hrMs();
    const task = await startThroughApp(stack, agent, `round ${round}`, POLL_MS);
    timings.push(hrMs() - started);
    const path = `${stack.running.url}/api/v1/app-conversations/${task.app_conversation_id}`;
    const removed = await httpRequest(agent, path, 'DELETE', undefined, stack.headers);
    if (removed.status !== 200) throw new Error(`DELETE app-conversation: HTTP ${removed.status} ${removed.body}`);
  }
  agent.destroy();
  const isolation = process.env.SANDBOX_ISOLATION === 'unsafe-none' ? 'not isolated' : 'bubblewrap';
  console.log(formatMs(`start task -> READY (new sandbox, ${isolation}, ${WARM ? 'warm' : 'cold'}; SQLite)`, timings));
  const { p50 } = summarize(timings);
  console.log(target('start task -> READY < 1 s (median)', p50 < 1000, `p50 ${p50.toFixed(1)} ms`));
} finally {
  await stack.close();
}
