/**
 * Start task to READY through the app: `POST /api/v1/app-conversations` (no repository, an initial message), then the
 * start task polled until READY — a new local sandbox (the bundle's `bosun agent-server`) started, skills set up, the
 * conversation started on it. The app server runs in this process on SQLite; the model is llm-replay.
 * Each round deletes its conversation (and so its sandbox) before the next.
 * Target: under 1 s (median).
 * Env: ROUNDS (8), POLL_MS (5).
 * Run: npm run bench:app-conversation-start
 */
import { appServerConfig, createOwnerApiKey, startAppServer } from '@bosun/app-server';
import { startLlmReplay } from '@bosun/llm-replay';
import { httpRequest, keepAliveAgent } from './support/http.ts';
import { CLI, buildBundle, tempDataDir } from './support/server-process.ts';
import { formatMs, hrMs, summarize, target } from './support/stats.ts';

const ROUNDS = Number(process.env.ROUNDS ?? 8);
const POLL_MS = Number(process.env.POLL_MS ?? 5);

await buildBundle();
const llm = await startLlmReplay({ script: { turns: [{ content: 'ready' }], repeat_last: true } });
const data = await tempDataDir('app-conversation-start');
const running = await startAppServer(
  appServerConfig({
    port: 0,
    log_level: 'silent',
    data_dir: data.dir,
    llm_model: 'openai/bench',
    llm_base_url: llm.baseUrl,
    llm_api_key: 'sk-bench',
    sandbox_command: [process.execPath, CLI],
  }),
);
try {
  const key = await createOwnerApiKey({ dataDir: data.dir });
  const headers = { authorization: `Bearer ${key}` };
  const agent = keepAliveAgent(1);
  const timings: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const started = hrMs();
    const answer = await httpRequest(
      agent,
      `${running.url}/api/v1/app-conversations`,
      'POST',
      { initial_message: { role: 'user', content: [{ type: 'text', text: `round ${round}` }] } },
      headers,
    );
    if (answer.status !== 200) throw new Error(`POST app-conversations: HTTP ${answer.status} ${answer.body}`);
    const taskId = JSON.parse(answer.body).id as string;
    let task: { status: string; detail: string | null; app_conversation_id: string | null };
    for (;;) {
      const polled = await httpRequest(
        agent,
        `${running.url}/api/v1/app-conversations/start-tasks?ids=${taskId}`,
        'GET',
        undefined,
        headers,
      );
      task = JSON.parse(polled.body)[0];
      if (task.status === 'READY' || task.status === 'ERROR') break;
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
    if (task.status === 'ERROR') throw new Error(`start task ERROR: ${task.detail}`);
    timings.push(hrMs() - started);
    const removed = await httpRequest(
      agent,
      `${running.url}/api/v1/app-conversations/${task.app_conversation_id}`,
      'DELETE',
      undefined,
      headers,
    );
    if (removed.status !== 200) throw new Error(`DELETE app-conversation: HTTP ${removed.status} ${removed.body}`);
  }
  agent.destroy();
  console.log(formatMs('start task -> READY (new local sandbox, SQLite)', timings));
  const { p50 } = summarize(timings);
  console.log(target('start task -> READY < 1 s (median)', p50 < 1000, `p50 ${p50.toFixed(1)} ms`));
} finally {
  await running.close();
  await llm.close();
  await data.remove();
}
