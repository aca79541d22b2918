import { mkdtemp, rm } from 'node:fs/promises';
/**
 * The browser tools: time to the first browser action of a conversation (Chromium started on demand, a tab
 * opened, a local page loaded) and the latency of each action on a warm browser, against a site served on
 * 127.0.0.1 by this process. Actions are called as the agent calls them (arguments parsed, observation built).
 * Env: COLD (5 cold starts), ROUNDS (30 rounds of every action).
 * Run: npm run bench:browser
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Tool, type ToolContext, createBrowserToolSet } from '@bosun/agent';
import { Action, parse } from '@bosun/protocol';
import { formatMs, hrMs } from './support/stats.ts';

const COLD = Number(process.env.COLD ?? 5);
const ROUNDS = Number(process.env.ROUNDS ?? 30);

const paragraphs = Array.from(
  { length: 400 },
  (_, i) => `<p>Paragraph ${i}: the quick brown fox jumps over the lazy dog.</p>`,
);
const PAGES: Record<string, string> = {
  '/': '<title>Form</title><form action="/thanks"><input name="name"><select name="c"><option>A</option><option>B</option></select><button>Send</button></form><a href="/long">Long page</a>',
  '/thanks': '<title>Thanks</title><h1>Thanks!</h1><a href="/">Again</a>',
  '/long': `<title>Long</title><h1>Long page</h1>${paragraphs.join('')}`,
};
const site = createServer((request, response) => {
  const path = new URL(request.url ?? '/', 'http://x').pathname;
  response.setHeader('content-type', 'text/html; charset=utf-8');
  response.end(PAGES[path] ?? '<title>404</title>');
});
await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
const root = await mkdtemp(join(tmpdir(), 'bosun-bench-browser-'));
const context: ToolContext = {
  workspace: root,
  stateDir: join(root, 'state'),
  signal: new AbortController().signal,
  mask: (text) => text,
};

async function call(tools: Tool[], name: string, args: Record<string, unknown> = {}): Promise<number> {
  const tool = tools.find((candidate) => candidate.name === name) as Tool;
  const action = parse(Action, { kind: tool.actionKind, ...args });
  const start = hrMs();
  const observation = await tool.execute(action, context);
  const elapsed = hrMs() - start;
  if (observation.is_error) throw new Error(`${name} failed: ${JSON.stringify(observation.content)}`);
  return elapsed;
}

const close = (tools: Tool[]) => Promise.all(tools.map((tool) => tool.close?.()));

try {
  console.log(`Chromium /usr/bin/chromium, ${COLD} cold starts, ${ROUNDS} rounds of each action on a warm browser`);
  const first: number[] = [];
  const closing: number[] = [];
  for (let i = 0; i < COLD; i++) {
    const tools = createBrowserToolSet();
    first.push(await call(tools, 'browser_navigate', { url }));
    const start = hrMs();
    await close(tools);
    closing.push(hrMs() - start);
  }
  console.log(formatMs('first action (launch + tab + navigate)', first));
  console.log(formatMs('close (browser gone)', closing));

  const tools = createBrowserToolSet();
  await call(tools, 'browser_navigate', { url });
  const timings = new Map<string, number[]>();
  const time = async (label: string, name: string, args: Record<string, unknown> = {}) => {
    const list = timings.get(label) ?? [];
    list.push(await call(tools, name, args));
    timings.set(label, list);
  };
  for (let round = 0; round < ROUNDS; round++) {
    await time('navigate (local page)', 'browser_navigate', { url });
    await time('get_state', 'browser_get_state');
    await time('type', 'browser_type', { index: 0, text: `name ${round}` });
    await time('type into <select>', 'browser_type', { index: 1, text: 'B' });
    await time('click (submits, waits for the page)', 'browser_click', { index: 2 });
    await time('get_content (short page)', 'browser_get_content');
    await time('go_back', 'browser_go_back');
    await time('click (no navigation)', 'browser_click', { index: 0 });
    await time('get_state + screenshot', 'browser_get_state', { include_screenshot: true });
    await time('navigate (long page)', 'browser_navigate', { url: `${url}/long` });
    await time('get_content (long page, 1st part)', 'browser_get_content');
    await time('scroll', 'browser_scroll');
    await time('list_tabs', 'browser_list_tabs');
    await time('get_storage', 'browser_get_storage');
  }
  for (const [label, values] of timings) console.log(formatMs(label, values));
  await close(tools);
} finally {
  site.close();
  await rm(root, { recursive: true, force: true });
}
