/**
 * The web application's first load: the JavaScript and CSS that `/` loads before any lazy chunk, compressed (gzip
 * and brotli, as a server or proxy in front would send them), measured from the production build
 * (`packages/web/dist`) by following what `index.html` loads and what those modules import statically; then, in
 * headless Chromium against the real app server (a conversation started through it, its sandbox under bubblewrap),
 * the bytes transferred for `/`, then for opening the conversation from there, and for `/conversations/<id>` opened
 * directly.
 * Goal: under 200 KB of compressed (gzip) JavaScript for the first load.
 * Run: npm run bench:web-first-load
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { constants, brotliCompressSync, gzipSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { launchChromium } from '../test/e2e/web/support/browser.ts';
import { buildWebOnce } from '../test/e2e/web/support/build-web.ts';
import { ROOT } from '../test/e2e/web/support/paths.ts';
import { startConversationStack } from './support/app-stack.ts';
import { target } from './support/stats.ts';

const DIST = join(ROOT, 'packages', 'web', 'dist');
const GOAL_KB = 200;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

interface Sizes {
  raw: number;
  gzip: number;
  brotli: number;
}

async function sizesOf(path: string): Promise<Sizes> {
  const bytes = await readFile(path);
  return {
    raw: bytes.length,
    gzip: gzipSync(bytes, { level: 9 }).length,
    brotli: brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
  };
}

/** The assets `/` loads before any lazy chunk: index.html's scripts, preloads and styles, and their static imports. */
async function firstLoadAssets(): Promise<string[]> {
  const page = await readFile(join(DIST, 'index.html'), 'utf8');
  const queue = [...page.matchAll(/<(?:script[^>]*\ssrc|link[^>]*\shref)="\/(assets\/[^"]+\.(?:js|css))"/g)].map(
    (match) => match[1] as string,
  );
  const seen = new Set<string>();
  while (queue.length > 0) {
    const asset = queue.shift() as string;
    if (seen.has(asset)) continue;
    seen.add(asset);
    if (!asset.endsWith('.js')) continue;
    const code = await readFile(join(DIST, asset), 'utf8');
    // Static imports only (`import ... from "./x.js"`, `import "./x.js"`); `import("./x.js")` is a lazy chunk.
    for (const match of code.matchAll(/(?:^|[;}\s])import\s*(?:[\w*{}\s,$]*?\bfrom\s*)?["']\.\/([^"']+)["']/g)) {
      queue.push(`assets/${match[1]}`);
    }
  }
  return [...seen];
}

async function fromTheBuild(): Promise<number> {
  const assets = await firstLoadAssets();
  const total = { js: { raw: 0, gzip: 0, brotli: 0 }, css: { raw: 0, gzip: 0, brotli: 0 } };
  console.log('First load, from the build (packages/web/dist):');
  for (const asset of assets) {
    const sizes = await sizesOf(join(DIST, asset));
    const kind = asset.endsWith('.css') ? 'css' : 'js';
    for (const key of ['raw', 'gzip', 'brotli'] as const) total[kind][key] += sizes[key];
    console.log(`  ${asset}: ${kb(sizes.raw)} raw, ${kb(sizes.gzip)} gzip, ${kb(sizes.brotli)} brotli`);
  }
  for (const kind of ['js', 'css'] as const) {
    const t = total[kind];
    console.log(`  ${kind.toUpperCase()} total: ${kb(t.raw)} raw, ${kb(t.gzip)} gzip, ${kb(t.brotli)} brotli`);
  }
  return total.js.gzip;
}

/** Bytes on the wire (headers and bodies, as Chromium counts them) by resource type while `action` runs. */
async function transferred(page: Page, action: () => Promise<void>): Promise<Map<string, number>> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  const types = new Map<string, string>();
  const bytes = new Map<string, number>();
  cdp.on('Network.responseReceived', (event) => types.set(event.requestId, event.type));
  cdp.on('Network.loadingFinished', (event) => {
    const type = types.get(event.requestId) ?? 'Other';
    bytes.set(type, (bytes.get(type) ?? 0) + event.encodedDataLength);
  });
  await action();
  await cdp.detach();
  return bytes;
}

function printTransfer(label: string, bytes: Map<string, number>): void {
  const parts = [...bytes].sort(([, a], [, b]) => b - a).map(([type, n]) => `${type} ${kb(n)}`);
  const total = [...bytes.values()].reduce((sum, n) => sum + n, 0);
  console.log(`  ${label}: ${kb(total)} (${parts.join(', ')})`);
}

async function inChromium(): Promise<void> {
  const { stack, conversation, close } = await startConversationStack('web-first-load');
  const browser = await launchChromium();
  try {
    const signIn = stack.running.signInUrl;
    if (!signIn) throw new Error('the server printed no sign-in link');
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    // Signed in first (the sign-in's own page load is not the one measured), then the cache emptied.
    await page.goto(signIn);
    await page.getByRole('button', { name: /account menu/i }).waitFor();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.clearBrowserCache');
    await cdp.detach();
    console.log('In Chromium, against bosun serve (bytes transferred, as the server sends them):');
    const home = await transferred(page, async () => {
      await page.goto(`${stack.running.url}/`, { waitUntil: 'networkidle' });
      await page.getByRole('textbox', { name: 'What should the agent do?' }).waitFor();
    });
    printTransfer('/ (cold)', home);
    const opened = await transferred(page, async () => {
      await page.evaluate(`(() => {
        history.pushState({}, '', '/conversations/${conversation.id}');
        dispatchEvent(new PopStateEvent('popstate'));
      })()`);
      await page.getByRole('log', { name: 'Conversation' }).waitFor();
      await page.waitForLoadState('networkidle');
    });
    printTransfer('then /conversations/<id> in the app', opened);
    const direct = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    await direct.addCookies(await context.cookies());
    const directPage = await direct.newPage();
    const cold = await transferred(directPage, async () => {
      await directPage.goto(`${stack.running.url}/conversations/${conversation.id}`, { waitUntil: 'networkidle' });
      await directPage.getByRole('log', { name: 'Conversation' }).waitFor();
    });
    printTransfer('/conversations/<id> opened directly (cold)', cold);
  } finally {
    await browser.close();
    await close();
  }
}

await buildWebOnce();
const gzipJs = await fromTheBuild();
console.log(target(`first-load JavaScript < ${GOAL_KB} KB gzip`, gzipJs < GOAL_KB * 1024, kb(gzipJs)));
await inChromium();
