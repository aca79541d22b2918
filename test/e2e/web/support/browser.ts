import { mkdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { type Browser, type BrowserContext, type Locator, type Page, chromium } from 'playwright-core';
import { expect } from 'vitest';
import { ARTIFACTS, AXE, CHROMIUM } from './paths.ts';

/** Debian's Chromium, headless: one per test file. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}

/** Generous but bounded: the machine may be loaded (2 cores shared by many). */
export const STEP_TIMEOUT = 30_000;

/** A fresh context (cookies, storage) and page for one test, at 1280 px, at `baseURL`. */
export interface PageOptions {
  width?: number;
  height?: number;
  colorScheme?: 'light' | 'dark';
  /** Keep the page's WebSockets within reach of `dropSockets`. */
  trackSockets?: boolean;
  /** A pinned copy of the web build (`pinWebBuild`): assets the server no longer has are served from it. */
  pinnedBuild?: string;
}

export async function newPage(
  browser: Browser,
  baseURL: string,
  options: PageOptions = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    baseURL,
    viewport: { width: options.width ?? 1280, height: options.height ?? 800 },
    colorScheme: options.colorScheme ?? 'light',
    reducedMotion: 'reduce',
  });
  context.setDefaultTimeout(STEP_TIMEOUT);
  context.setDefaultNavigationTimeout(STEP_TIMEOUT);
  if (options.pinnedBuild) await servePinnedAssets(context, options.pinnedBuild);
  if (options.trackSockets) await context.addInitScript({ content: TRACK_SOCKETS });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  (page as Page & { problems?: string[] }).problems = problems;
  return { context, page };
}

/**
 * The app's hashed assets from the pinned copy of the build the server read at its start (`pinWebBuild`), the
 * others from the server: in a tree several people work in, a web build made while a test file runs replaces
 * `dist/assets` under the server (which keeps the `index.html` it read), and a file being written is served half
 * written. CI builds once, so the copy is the server's own files; the server's serving of assets has its own tests
 * (packages/app-server/test/web-app.test.ts).
 */
async function servePinnedAssets(context: BrowserContext, pinned: string): Promise<void> {
  await context.route(/\/assets\/[^/?#]+$/, async (route) => {
    const file = join(pinned, 'assets', new URL(route.request().url()).pathname.split('/').pop() ?? '');
    if (
      await stat(file).then(
        () => true,
        () => false,
      )
    )
      return route.fulfill({ path: file });
    return route.fallback();
  });
}

/** Wraps the page's WebSocket so that the test can see the connections the app holds, and drop them. */
const TRACK_SOCKETS = `(() => {
  const Native = window.WebSocket;
  const open = [];
  class Tracked extends Native {
    constructor(url, protocols) {
      super(url, protocols);
      open.push(this);
    }
  }
  window.WebSocket = Tracked;
  window.__testSockets = open;
})();`;

/**
 * Drops every open WebSocket of the page (a page made with `trackSockets`), as a network failure does: each closes
 * with 4000 (not a close the server meant), so the app's client reconnects. Answers how many were dropped.
 */
export async function dropSockets(page: Page): Promise<number> {
  return (await page.evaluate(`(() => {
    let dropped = 0;
    for (const socket of window.__testSockets || []) {
      if (socket.readyState <= 1) {
        socket.close(4000, 'dropped by the test');
        dropped++;
      }
    }
    return dropped;
  })()`)) as number;
}

/** How many WebSockets the page (made with `trackSockets`) has opened so far. */
export async function socketsMade(page: Page): Promise<number> {
  return (await page.evaluate('(window.__testSockets || []).length')) as number;
}

/** How many WebSockets of the page (made with `trackSockets`) are open now. */
export async function openSockets(page: Page): Promise<number> {
  return (await page.evaluate(
    '(window.__testSockets || []).filter((socket) => socket.readyState === 1).length',
  )) as number;
}

/** Uncaught errors the page threw so far (a page that throws is broken even when it looks right). */
export function pageErrors(page: Page): string[] {
  return (page as Page & { problems?: string[] }).problems ?? [];
}

/** Waits for `locator` to show (its first match), within the step timeout. */
export async function visible(locator: Locator): Promise<Locator> {
  await locator.first().waitFor({ state: 'visible' });
  return locator.first();
}

/** The account menu of the signed-in frame: its button is named after who is signed in. */
export const accountMenu = (page: Page) => page.getByRole('button', { name: /account menu/i });

/**
 * Opens a one-time sign-in link, as a person clicks it in a terminal: the server signs the browser in and sends it
 * on; resolves once the signed-in frame shows.
 */
export async function signInWithLink(page: Page, link: string): Promise<void> {
  await page.goto(link);
  await visible(accountMenu(page));
}

/** Waits until no loading line (`Loading …`, the design system's spinner with its label) shows on the page. */
export async function settled(page: Page): Promise<void> {
  // A function, not a string: the app's Content-Security-Policy refuses `eval`, which a string would need.
  await page.waitForFunction(
    () => {
      const doc = (globalThis as unknown as { document: { querySelectorAll(selector: string): Iterable<Text> } })
        .document;
      return ![...doc.querySelectorAll('output')].some((output) => /^\s*Loading\b/.test(output.textContent ?? ''));
    },
    undefined,
    { timeout: STEP_TIMEOUT },
  );
}

const shotPath = (name: string) => join(ARTIFACTS, `${name.replace(/[^\w.-]+/g, '-').replace(/^-|-$/g, '')}.png`);

/** Where the screenshot of test `name` is kept when it fails. */
export const failedShot = (name: string) => shotPath(`failed-${name}`);

/** `test-artifacts/web/<name>.png`: the whole page, kept as the flow's artifact. */
export async function screenshot(page: Page, name: string, options: { settle?: boolean } = {}): Promise<string> {
  if (options.settle !== false) await settled(page);
  await mkdir(ARTIFACTS, { recursive: true });
  const path = shotPath(name);
  await page.screenshot({ path, fullPage: true, animations: 'disabled' });
  return path;
}

/** What the page's elements give the checks above. */
interface Text {
  textContent: string | null;
}

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  helpUrl: string;
  nodes: { target: unknown[]; failureSummary?: string }[];
}

/**
 * axe-core on the page as it is now (injected from packages/web's axe-core): fails on any serious or critical
 * violation, naming each rule, its help and the elements.
 */
export async function expectAccessible(page: Page, what: string): Promise<void> {
  await settled(page);
  const loaded = await page.evaluate('typeof window.axe === "object"');
  // Evaluated rather than added as a <script>: the app's Content-Security-Policy (script-src 'self') refuses an
  // inline script, and the tests keep the policy the app is served with.
  if (!loaded) await page.evaluate(await readFile(AXE, 'utf8'));
  const violations = (await page.evaluate(
    'window.axe.run(document, { resultTypes: ["violations"] }).then((results) => results.violations)',
  )) as AxeViolation[];
  const serious = violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
  const described = serious.map(
    (violation) =>
      `${violation.impact} ${violation.id}: ${violation.help} (${violation.helpUrl})\n${violation.nodes
        .slice(0, 5)
        .map((node) => `    ${JSON.stringify(node.target)} ${node.failureSummary?.replace(/\n\s*/g, ' ') ?? ''}`)
        .join('\n')}`,
  );
  if (described.length > 0) console.error(`axe-core on ${what}:\n${described.join('\n')}`);
  // Soft: the flow goes on (and its other checks run) while the test is marked failed.
  expect.soft(described, `axe-core: serious or critical violations on ${what}`).toEqual([]);
}

/** The page fits its window's width: nothing to scroll sideways (soft: the flow goes on). */
export async function expectNoSidewaysScroll(page: Page, what: string): Promise<void> {
  const { scrollWidth, width } = (await page.evaluate(
    '({ scrollWidth: document.documentElement.scrollWidth, width: window.innerWidth })',
  )) as { scrollWidth: number; width: number };
  expect.soft(scrollWidth, `${what}: wider than the window (${width} px)`).toBeLessThanOrEqual(width);
}

/** The page fits its window's height: the header and the page below it, nothing to scroll down (soft). */
export async function expectNoDownwardScroll(page: Page, what: string): Promise<void> {
  const { scrollHeight, height } = (await page.evaluate(
    '({ scrollHeight: document.documentElement.scrollHeight, height: window.innerHeight })',
  )) as { scrollHeight: number; height: number };
  expect.soft(scrollHeight, `${what}: taller than the window (${height} px)`).toBeLessThanOrEqual(height);
}

/**
 * Presses Tab until the focused element matches `matches` (a role and accessible name, as a person finds it by
 * moving through the page), at most `limit` times; fails naming what was focused on the way.
 */
export async function tabTo(page: Page, name: RegExp, options: { limit?: number; backwards?: boolean } = {}) {
  const seen: string[] = [];
  const limit = options.limit ?? 60;
  for (let i = 0; i < limit; i++) {
    await page.keyboard.press(options.backwards ? 'Shift+Tab' : 'Tab');
    const focused = (await page.evaluate(`(() => {
      const el = document.activeElement;
      if (!el || el === document.body) return '';
      const label = el.getAttribute('aria-label') || (el.labels && el.labels[0] && el.labels[0].textContent) ||
        el.getAttribute('placeholder') || el.getAttribute('title') || el.textContent || '';
      return (el.tagName.toLowerCase() + ' ' + label.replace(/\\s+/g, ' ').trim()).slice(0, 120);
    })()`)) as string;
    seen.push(focused);
    if (name.test(focused)) return;
  }
  throw new Error(`Tab never reached ${name} in ${limit} presses; focused on the way:\n  ${seen.join('\n  ')}`);
}
