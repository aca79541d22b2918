/**
 * What the app adds to sending a message: `POST /api/v1/app-conversations/{id}/send-message` (authentication,
 * ownership, the sandbox looked up, the message forwarded to its agent server) against the same message posted to
 * the agent server directly (`POST /api/conversations/{id}/events` with the session key). `run: false`, so only the
 * message is stored; sequential requests over keep-alive connections, alternating, after a warm-up.
 * Target: under 2 ms added at p50 (app p50 minus direct p50). SQLite; the sandbox is the bundle's agent server.
 * Env: REQUESTS (2000), WARMUP (200).
 * Run: npm run bench:app-send-message
 */
import { appServerConfig, createOwnerApiKey, startAppServer } from '@bosun/app-server';
import { startLlmReplay } from '@bosun/llm-replay';
import { httpRequest, keepAliveAgent } from './support/http.ts';
import { CLI, buildBundle, tempDataDir } from './support/server-process.ts';
import { formatMs, hrMs, summarize, target } from './support/stats.ts';

const REQUESTS = Number(process.env.REQUESTS ?? 2000);
const WARMUP = Number(process.env.WARMUP ?? 200);

await buildBundle();
const llm = await startLlmReplay({ script: { turns: [{ content: 'ready' }], repeat_last: true } });
const data = await tempDataDir('app-send-message');
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
  const toApp = keepAliveAgent(1);
  const toAgent = keepAliveAgent(1);
  const started = await httpRequest(
    toApp,
    `${running.url}/api/v1/app-conversations`,
    'POST',
    { initial_message: { role: 'user', content: [{ type: 'text', text: 'hello' }] } },
    headers,
  );
  if (started.status !== 200) throw new Error(`POST app-conversations: HTTP ${started.status} ${started.body}`);
  const taskId = JSON.parse(started.body).id as string;
  let task: { status: string; detail: string | null; app_conversation_id: string };
  for (;;) {
    const polled = await httpRequest(
      toApp,
      `${running.url}/api/v1/app-conversations/start-tasks?ids=${taskId}`,
      'GET',
      undefined,
      headers,
    );
    task = JSON.parse(polled.body)[0];
    if (task.status === 'READY' || task.status === 'ERROR') break;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  if (task.status === 'ERROR') throw new Error(`start task ERROR: ${task.detail}`);
  const id = task.app_conversation_id;
  const conversation = JSON.parse(
    (await httpRequest(toApp, `${running.url}/api/v1/app-conversations?ids=${id}`, 'GET', undefined, headers)).body,
  )[0] as { conversation_url: string; session_api_key: string };

  const message = (n: number) => ({ role: 'user', content: [{ type: 'text', text: `message ${n}` }], run: false });
  const viaApp: number[] = [];
  const direct: number[] = [];
  for (let i = 0; i < WARMUP + REQUESTS; i++) {
    let at = hrMs();
    const app = await httpRequest(
      toApp,
      `${running.url}/api/v1/app-conversations/${id}/send-message`,
      'POST',
      message(i),
      headers,
    );
    const appMs = hrMs() - at;
    if (app.status !== 200) throw new Error(`send-message: HTTP ${app.status} ${app.body}`);
    at = hrMs();
    const agent = await httpRequest(toAgent, `${conversation.conversation_url}/events`, 'POST', message(i), {
      'X-Session-API-Key': conversation.session_api_key,
    });
    const directMs = hrMs() - at;
    if (agent.status !== 200) throw new Error(`POST events: HTTP ${agent.status} ${agent.body}`);
    if (i >= WARMUP) {
      viaApp.push(appMs);
      direct.push(directMs);
    }
  }
  toApp.destroy();
  toAgent.destroy();
  console.log(formatMs('send-message through the app', viaApp));
  console.log(formatMs('POST events on the agent server directly', direct));
  const added = summarize(viaApp).p50 - summarize(direct).p50;
  console.log(target('the app adds < 2 ms at p50', added < 2, `added ${added.toFixed(3)} ms`));
} finally {
  await running.close();
  await llm.close();
  await data.remove();
}
