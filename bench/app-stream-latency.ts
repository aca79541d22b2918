/**
 * How long a piece of the agent's answer takes from llm-replay to a browser: the time from each streamed chunk
 * leaving llm-replay (its `onStreamEvent`) to the app's `/sockets/events/{id}?stream=true` subscriber receiving the
 * text in a stream frame (agent in the sandbox, its agent server's socket, the app's relay). One process, one
 * clock. Each answer is WORDS unique words, one per chunk, STREAM_DELAY_MS apart; the first answers warm up (and
 * let the relay connect). Target: p50 < 50 ms.
 * Env: ANSWERS (20), WORDS (60), STREAM_DELAY_MS (5), SANDBOX_ISOLATION (bubblewrap).
 * Run: npm run bench:app-stream-latency (measured here: p50 9.5 ms, p90 16 ms over 1200 words, bubblewrap)
 */
import { AppServerClient, followConversationEvents } from '@bosun/client';
import { startLlmReplay } from '@bosun/llm-replay';
import type { StoredEvent, StreamFrame } from '@bosun/protocol';
import { startAppStack, startThroughApp } from './support/app-stack.ts';
import { httpRequest, keepAliveAgent } from './support/http.ts';
import { formatMs, hrMs, summarize, target } from './support/stats.ts';

const ANSWERS = Number(process.env.ANSWERS ?? 20);
const WORDS = Number(process.env.WORDS ?? 60);
const STREAM_DELAY_MS = Number(process.env.STREAM_DELAY_MS ?? 5);
const WARMUP = 3;

/** When each word left llm-replay, by word. */
const sentAt = new Map<string, number>();
let answer = 0;
const words = () => Array.from({ length: WORDS }, (_, i) => `a${answer}w${i}`).join(' ');
const llm = await startLlmReplay({
  script: { turns: [{ content: 'ready', stream_delay_ms: STREAM_DELAY_MS }], repeat_last: true },
  onStreamEvent: ({ data }) => {
    const at = hrMs();
    if (!data.startsWith('{')) return;
    const chunk = JSON.parse(data) as { choices?: { delta?: { content?: string } }[] };
    for (const word of (chunk.choices?.[0]?.delta?.content ?? '').split(/\s+/)) if (word) sentAt.set(word, at);
  },
});
const stack = await startAppStack('app-stream-latency', { config: { llm_base_url: llm.baseUrl } });
const toApp = keepAliveAgent(1);
const abort = new AbortController();
try {
  const id = (await startThroughApp(stack, toApp, 'hello', 20)).app_conversation_id;
  const key = stack.headers.authorization?.replace(/^Bearer /, '') as string;
  const app = new AppServerClient({ baseUrl: stack.running.url, apiKey: key });
  const latencies: number[] = [];
  let answered = 0;
  let measuring = false;
  const following = (async () => {
    const onStream = (frame: StreamFrame) => {
      const at = hrMs();
      if (!measuring) return;
      for (const word of (frame.delta?.text ?? '').split(/\s+/)) {
        const sent = sentAt.get(word);
        if (sent !== undefined) latencies.push(at - sent);
      }
    };
    for await (const event of followConversationEvents(app, id, { stream: true, onStream, signal: abort.signal })) {
      if ((event as StoredEvent).kind === 'MessageEvent' && event.source === 'agent') answered += 1;
    }
  })().catch(() => undefined);

  for (answer = 0; answer < WARMUP + ANSWERS; answer++) {
    measuring = answer >= WARMUP;
    llm.setScript({ turns: [{ content: words(), stream_delay_ms: STREAM_DELAY_MS }], repeat_last: true });
    const before = answered;
    const body = { role: 'user', content: [{ type: 'text', text: `answer ${answer}` }], run: true };
    const sent = await httpRequest(
      toApp,
      `${stack.running.url}/api/v1/app-conversations/${id}/send-message`,
      'POST',
      body,
      stack.headers,
    );
    if (sent.status !== 200) throw new Error(`send-message: HTTP ${sent.status} ${sent.body}`);
    while (answered === before) await new Promise((resolve) => setTimeout(resolve, 5));
  }
  console.log(formatMs('chunk leaving llm-replay -> text on the app socket', latencies));
  const { p50, count } = summarize(latencies);
  console.log(`words measured: ${count} of ${ANSWERS * WORDS}`);
  console.log(target('p50 < 50 ms', p50 < 50, `p50 ${p50.toFixed(3)} ms`));
  abort.abort();
  await following;
} finally {
  abort.abort();
  toApp.destroy();
  await stack.close();
  await llm.close();
}
