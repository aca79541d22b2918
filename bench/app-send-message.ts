/**
 * What the app adds to sending a message: `POST /api/v1/app-conversations/{id}/send-message` (authentication,
 * ownership, the sandbox looked up, the message forwarded to its agent server) against the same message posted to
 * the agent server directly (`POST /api/conversations/{id}/events` with the session key). `run: false`, so only the
 * message is stored; sequential requests over keep-alive connections, alternating, after a warm-up.
 * Target: under 2 ms added at p50 (app p50 minus direct p50). SQLite; the sandbox is the bundle's agent server.
 * Env: REQUESTS (2000), WARMUP (200).
 * Run: npm run bench:app-send-message
 */
import { startConversationStack } from './support/app-stack.ts';
import { httpRequest } from './support/http.ts';
import { formatMs, hrMs, summarize, target } from './support/stats.ts';

const REQUESTS = Number(process.env.REQUESTS ?? 2000);
const WARMUP = Number(process.env.WARMUP ?? 200);

const { stack, conversation, toApp, toAgent, close } = await startConversationStack('app-send-message');
try {
  const { url } = stack.running;
  const { id } = conversation;

  const message = (n: number) => ({ role: 'user', content: [{ type: 'text', text: `message ${n}` }], run: false });
  const viaApp: number[] = [];
  const direct: number[] = [];
  for (let i = 0; i < WARMUP + REQUESTS; i++) {
    let at = hrMs();
    const app = await httpRequest(
      toApp,
      `${url}/api/v1/app-conversations/${id}/send-message`,
      'POST',
      message(i),
      stack.headers,
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
  console.log(formatMs('send-message through the app', viaApp));
  console.log(formatMs('POST events on the agent server directly', direct));
  const added = summarize(viaApp).p50 - summarize(direct).p50;
  console.log(target('the app adds < 2 ms at p50', added < 2, `added ${added.toFixed(3)} ms`));
} finally {
  await close();
}
