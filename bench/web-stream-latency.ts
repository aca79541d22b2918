/**
 * How soon a streamed piece of the agent's answer is on screen: the delay from a chunk leaving the model (a
 * timestamping proxy in front of llm-replay, which streams one word a chunk) to its word being in the page
 * (a MutationObserver installed before the page's code runs), in headless Chromium against bosun serve with a real
 * sandbox under bubblewrap.
 * Goal: p50 under 50 ms.
 * Needs streaming (the stream frames of the event socket): should the answer arrive whole, as its event only, the
 * bench says so instead of passing.
 * Env: WORDS (80), STREAM_DELAY_MS (40).
 * Run: npm run bench:web-stream-latency
 */
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startLlmReplay } from '@bosun/llm-replay';
import { launchChromium } from '../test/e2e/web/support/browser.ts';
import { buildWebOnce } from '../test/e2e/web/support/build-web.ts';
import { startAppStack, startThroughApp } from './support/app-stack.ts';
import { keepAliveAgent } from './support/http.ts';
import { formatMs, summarize, target } from './support/stats.ts';

const WORDS = Number(process.env.WORDS ?? 80);
const STREAM_DELAY_MS = Number(process.env.STREAM_DELAY_MS ?? 40);
const GOAL_MS = 50;
const word = (n: number) => `w${String(n).padStart(3, '0')}`;
const answer = Array.from({ length: WORDS }, (_, n) => word(n + 1)).join(' ');
const now = () => performance.timeOrigin + performance.now();

const llm = await startLlmReplay({
  script: {
    turns: [
      { when: { last_user_message_contains: 'stream please' }, content: answer, stream_delay_ms: STREAM_DELAY_MS },
      { content: 'ready' },
    ],
    repeat_last: true,
  },
});
/** When each word left for the agent: the proxy's write of the chunk that carries it. */
const left = new Map<number, number>();
const proxy = createServer((incoming, outgoing) => {
  const upstream = request(
    `${llm.url}${incoming.url}`,
    { method: incoming.method, headers: incoming.headers },
    (response) => {
      outgoing.writeHead(response.statusCode ?? 502, response.headers);
      response.on('data', (chunk: Buffer) => {
        outgoing.write(chunk);
        const at = now();
        for (const match of chunk.toString().matchAll(/w(\d{3})/g)) {
          const n = Number(match[1]);
          if (!left.has(n)) left.set(n, at);
        }
      });
      response.on('end', () => outgoing.end());
    },
  );
  incoming.pipe(upstream);
});
await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
const proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/v1`;

const SEEN = `(() => {
  window.__seen = {};
  const stamp = (text) => {
    const at = performance.timeOrigin + performance.now();
    for (const match of (text || '').matchAll(/w(\\d{3})/g)) window.__seen[match[1]] ??= at;
  };
  new MutationObserver((records) => {
    for (const record of records) {
      stamp(record.target.textContent);
      for (const node of record.addedNodes) stamp(node.textContent);
    }
  }).observe(document, { subtree: true, childList: true, characterData: true });
})();`;

await buildWebOnce();
const stack = await startAppStack('web-stream-latency', { config: { llm_base_url: proxyUrl } });
const browser = await launchChromium();
try {
  const agent = keepAliveAgent(1);
  const { app_conversation_id: id } = await startThroughApp(stack, agent, 'hello', 50);
  agent.destroy();
  const signIn = stack.running.signInUrl;
  if (!signIn) throw new Error('the server printed no sign-in link');
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.addInitScript({ content: SEEN });
  const page = await context.newPage();
  await page.goto(signIn);
  await page.getByRole('button', { name: /account menu/i }).waitFor();
  await page.goto(`${stack.running.url}/conversations/${id}`);
  const box = page.getByRole('textbox', { name: 'Message to the agent' });
  await box.waitFor();
  await page.getByRole('log', { name: 'Conversation' }).getByText('ready').first().waitFor({ timeout: 60_000 });
  await box.fill('stream please');
  await box.press('Enter');
  await page.waitForFunction(
    (last) => Boolean((globalThis as unknown as { __seen: Record<string, number> }).__seen[last]),
    String(WORDS).padStart(3, '0'),
    { timeout: 120_000 },
  );
  const seen = (await page.evaluate('window.__seen')) as Record<string, number>;
  const delays: number[] = [];
  for (let n = 1; n <= WORDS; n++) {
    const out = left.get(n);
    const shown = seen[String(n).padStart(3, '0')];
    if (out !== undefined && shown !== undefined) delays.push(shown - out);
  }
  const firstShown = seen[String(1).padStart(3, '0')] ?? 0;
  const lastShown = seen[String(WORDS).padStart(3, '0')] ?? 0;
  const spread = lastShown - firstShown;
  const streamed = spread > (WORDS * STREAM_DELAY_MS) / 4;
  console.log(
    `${WORDS} words, one chunk each ${STREAM_DELAY_MS} ms apart; on screen over ${spread.toFixed(0)} ms ` +
      `(the model took ${((left.get(WORDS) ?? 0) - (left.get(1) ?? 0)).toFixed(0)} ms)`,
  );
  if (!streamed) {
    console.log(
      'The answer appeared whole, as its event: no stream frame reached the page, so this measures the whole ' +
        'answer, not streaming.',
    );
  }
  console.log(formatMs('chunk leaving the model to its word on screen', delays));
  const { p50 } = summarize(delays);
  console.log(
    target(`streamed text on screen p50 < ${GOAL_MS} ms`, streamed && p50 < GOAL_MS, `p50 ${p50.toFixed(1)} ms`),
  );
} finally {
  await browser.close();
  await stack.close();
  proxy.closeAllConnections();
  await new Promise((resolve) => proxy.close(resolve));
  await llm.close();
}
