/**
 * A long conversation in the web application: 5,000 events (messages posted through the agent server of a real
 * sandbox started through the app, which the app stores as it does every event), opened in headless Chromium
 * against bosun serve, then scrolled from the newest event to the oldest. Long tasks are read with a
 * PerformanceObserver (`longtask`) installed before the page's own code runs.
 * Goals: the newest event on screen under 1 s after navigating; no long task over 50 ms while scrolling.
 * Env: EVENTS (5000), SCROLL_STEPS (120).
 * Run: npm run bench:web-long-conversation
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { launchChromium, newPage } from '../test/e2e/web/support/browser.ts';
import { buildWebOnce, pinWebBuild } from '../test/e2e/web/support/build-web.ts';
import { startConversationStack } from './support/app-stack.ts';
import { httpRequest, keepAliveAgent } from './support/http.ts';
import { target } from './support/stats.ts';

const EVENTS = Number(process.env.EVENTS ?? 5000);
const SCROLL_STEPS = Number(process.env.SCROLL_STEPS ?? 120);
const OPEN_GOAL_MS = 1000;
const LONG_TASK_MS = 50;

/** Varied messages, as a long session has: short lines, paragraphs, lists and code blocks. */
function message(n: number): string {
  if (n === EVENTS) return 'The newest message.';
  if (n % 10 === 0) {
    return `Step ${n}: here is the change.\n\n\`\`\`ts\nexport function step${n}(input: string): string {\n  return input.trim();\n}\n\`\`\``;
  }
  if (n % 7 === 0) return `Checklist ${n}:\n\n- read the file\n- change the parser\n- run the tests`;
  if (n % 3 === 0)
    return `Message ${n}. ${'A longer paragraph that wraps over a few lines in the timeline. '.repeat(3)}`;
  return `Message ${n}.`;
}

const OBSERVE_LONG_TASKS = `(() => {
  window.__longTasks = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) window.__longTasks.push({ start: entry.startTime, duration: entry.duration });
  }).observe({ type: 'longtask', buffered: true });
})();`;

async function longTasks(page: Page): Promise<{ start: number; duration: number }[]> {
  return (await page.evaluate('window.__longTasks.splice(0)')) as { start: number; duration: number }[];
}

await buildWebOnce();
const pinned = await mkdtemp(join(tmpdir(), 'bosun-web-pinned-'));
await pinWebBuild(pinned);
const { stack, conversation, close } = await startConversationStack('web-long-conversation');
const browser = await launchChromium();
try {
  // The build the server read at its start, pinned (someone building the shared tree meanwhile empties dist/).
  const served = await fetch(stack.running.url, { headers: { accept: 'text/html' } }).then((answer) => answer.text());
  for (let attempt = 0; served !== (await readFile(join(pinned, 'index.html'), 'utf8')) && attempt < 5; attempt++) {
    await pinWebBuild(pinned);
  }
  const agent = keepAliveAgent(4);
  const started = performance.now();
  const headers = { 'X-Session-API-Key': conversation.session_api_key };
  // Four at a time; the agent server orders them in its log.
  for (let n = 1; n <= EVENTS; n += 4) {
    await Promise.all(
      [0, 1, 2, 3]
        .filter((k) => n + k <= EVENTS)
        .map(async (k) => {
          const body = { role: 'user', content: [{ type: 'text', text: message(n + k) }], run: false };
          const answer = await httpRequest(agent, `${conversation.conversation_url}/events`, 'POST', body, headers);
          if (answer.status !== 200) throw new Error(`POST events: HTTP ${answer.status} ${answer.body}`);
        }),
    );
  }
  const countUrl = `${stack.running.url}/api/v1/conversation/${conversation.id}/events/count`;
  for (;;) {
    const count = Number((await httpRequest(agent, countUrl, 'GET', undefined, stack.headers)).body);
    if (count >= EVENTS) {
      console.log(`${count} events stored by the app in ${((performance.now() - started) / 1000).toFixed(1)} s`);
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  agent.destroy();

  const signIn = stack.running.signInUrl;
  if (!signIn) throw new Error('the server printed no sign-in link');
  const { context, page } = await newPage(browser, stack.running.url, { height: 900, pinnedBuild: pinned });
  await context.addInitScript({ content: OBSERVE_LONG_TASKS });
  await page.goto(signIn);
  await page.getByRole('button', { name: /account menu/i }).waitFor();
  // Once to warm the cache with the page's chunks (a returning person), then measured.
  const last = 'The newest message.';
  const open = async () => {
    const at = performance.now();
    await page.goto(`${stack.running.url}/conversations/${conversation.id}`);
    await page.getByRole('log', { name: 'Conversation' }).getByText(last, { exact: true }).waitFor({ timeout: 60_000 });
    return performance.now() - at;
  };
  const coldMs = await open();
  const warmMs = await open();
  const openTasks = await longTasks(page);
  console.log(`open (first, chunks not cached): newest event on screen after ${coldMs.toFixed(0)} ms`);
  console.log(`open (chunks cached): newest event on screen after ${warmMs.toFixed(0)} ms`);
  console.log(
    `long tasks while opening: ${openTasks.length} (longest ${Math.max(0, ...openTasks.map((t) => t.duration)).toFixed(0)} ms)`,
  );
  console.log(
    target(
      `a ${EVENTS}-event conversation opens in < ${OPEN_GOAL_MS} ms`,
      warmMs < OPEN_GOAL_MS,
      `${warmMs.toFixed(0)} ms`,
    ),
  );

  // Scrolled up with the mouse wheel a screen at a time, two frames each, from the newest event to the oldest
  // (older pages load on the way), as a person reads back.
  const box = page.locator('.timeline-scroll');
  const bounds = await box.boundingBox();
  if (!bounds) throw new Error('no timeline');
  await page.mouse.move(bounds.x + bounds.width / 2, bounds.y + bounds.height / 2);
  const position = async () =>
    (await page.evaluate(
      "(() => { const box = document.querySelector('.timeline-scroll'); return { top: box.scrollTop, height: box.scrollHeight }; })()",
    )) as {
      top: number;
      height: number;
    };
  const twoFrames = '(new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))))';
  const at = performance.now();
  let steps = 0;
  for (; steps < SCROLL_STEPS; steps++) {
    await page.mouse.wheel(0, -bounds.height);
    await page.evaluate(twoFrames);
    if ((await position()).top === 0) break;
  }
  const scroll = { steps, ms: performance.now() - at, ...(await position()) };
  const scrollTasks = await longTasks(page);
  const over = scrollTasks.filter((task) => task.duration > LONG_TASK_MS);
  console.log(
    `scrolled ${scroll.steps} screens in ${scroll.ms.toFixed(0)} ms (${(scroll.ms / Math.max(1, scroll.steps)).toFixed(1)} ms a screen; ` +
      `${scroll.top === 0 ? 'reached the oldest event' : `stopped at ${scroll.top} of ${scroll.height} px`})`,
  );
  console.log(
    `long tasks while scrolling: ${scrollTasks.length}, over ${LONG_TASK_MS} ms: ${over.length}${over.length > 0 ? ` (${over.map((task) => task.duration.toFixed(0)).join(', ')} ms)` : ''}`,
  );
  console.log(target(`no long task over ${LONG_TASK_MS} ms while scrolling`, over.length === 0, `${over.length} over`));
} finally {
  await browser.close();
  await close();
  await rm(pinned, { recursive: true, force: true });
}
