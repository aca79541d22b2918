import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type LlmReplay, type Script, startLlmReplay } from '@bosun/llm-replay';
import type { Browser, Cookie, Page } from 'playwright-core';
import { afterAll, beforeAll, onTestFinished } from 'vitest';
import { type WebApp, type WebAppOptions, startWebApp } from './app.ts';
import {
  type PageOptions,
  accountMenu,
  failedShot,
  launchChromium,
  newPage,
  pageErrors,
  screenshot,
  signInWithLink,
} from './browser.ts';
import { buildWebOnce, pinWebBuild } from './build-web.ts';

/** What a web test file shares: one app server, one scripted model, one Chromium. */
export interface WebSuite {
  app: WebApp;
  llm: LlmReplay;
  browser: Browser;
  /** A new browser context and page for the current test (closed when it ends), at the app, at 1280 px by default. */
  page(options?: PageOptions): Promise<Page>;
  /** A new page signed in as the owner (through a fresh one-time link). */
  signedInPage(options?: PageOptions): Promise<Page>;
  /** Points the owner's settings at llm-replay (as a person does once in the settings, here through the API). */
  configureLlm(extra?: Record<string, unknown>): Promise<void>;
}

export interface WebSuiteOptions {
  /** The model's script (default: one answer, repeated). */
  script?: Script;
  app?: WebAppOptions | (() => Promise<WebAppOptions>);
}

/**
 * Declares the file's `beforeAll`/`afterAll`: the web app built (once across files), llm-replay, `bosun serve`,
 * Chromium. Read the returned object's fields inside tests only.
 */
export function useWebSuite(options: WebSuiteOptions = {}): WebSuite {
  let app: WebApp | undefined;
  let llm: LlmReplay | undefined;
  let browser: Browser | undefined;
  let pinned: string | undefined;
  // The session of the file's first sign-in, given to later pages: sign-ins are rate-limited per address (10 a minute).
  let session: Cookie[] = [];
  const suite: WebSuite = {
    get app() {
      if (!app) throw new Error('the app server did not start');
      return app;
    },
    get llm() {
      if (!llm) throw new Error('llm-replay did not start');
      return llm;
    },
    get browser() {
      if (!browser) throw new Error('Chromium did not start');
      return browser;
    },
    async page(pageOptions) {
      const { context, page } = await newPage(suite.browser, suite.app.url, { pinnedBuild: pinned, ...pageOptions });
      onTestFinished(async (result) => {
        const errors = pageErrors(page);
        if (result.task.result?.state === 'fail') {
          // What the page showed when the test failed, beside the flows' screenshots.
          await screenshot(page, `failed-${result.task.name}`, { settle: false }).catch(() => undefined);
          if (errors.length > 0) console.error(`the page threw:\n${errors.join('\n')}`);
        } else {
          await rm(failedShot(result.task.name), { force: true });
        }
        await context.close().catch(() => undefined);
        if (errors.length > 0 && result.task.result?.state !== 'fail') {
          throw new Error(`the page threw:\n${errors.join('\n')}`);
        }
      });
      return page;
    },
    async signedInPage(pageOptions) {
      const page = await suite.page(pageOptions);
      if (session.length > 0) {
        await page.context().addCookies(session);
        await page.goto('/');
        // Still signed in (no test of the file signed this session out): the frame shows, not the sign-in page.
        const frame = await accountMenu(page)
          .first()
          .waitFor({ state: 'visible', timeout: 15_000 })
          .then(() => true)
          .catch(() => false);
        if (frame) return page;
      }
      await signInWithLink(page, await suite.app.signInLink());
      session = await page.context().cookies();
      return page;
    },
    async configureLlm(extra = {}) {
      await suite.app.api.post('/api/v1/settings', {
        body: {
          llm_model: 'openai/scripted',
          llm_base_url: suite.llm.baseUrl,
          llm_api_key: 'sk-web-e2e',
          ...extra,
        },
      });
    },
  };
  beforeAll(async () => {
    const appOptions = typeof options.app === 'function' ? options.app() : Promise.resolve(options.app ?? {});
    [llm, browser] = await Promise.all([
      startLlmReplay({ script: options.script ?? { turns: [{ content: 'Done.' }], repeat_last: true } }),
      launchChromium(),
      buildWebOnce(),
    ]);
    const resolved = await appOptions;
    pinned = await mkdtemp(join(tmpdir(), 'bosun-web-pinned-'));
    // The build pinned is the one the server read at its start (a build by someone else in between: again).
    for (let attempt = 0; ; attempt++) {
      const page = await pinWebBuild(pinned);
      app = await startWebApp(resolved);
      const served = await fetch(app.url, { headers: { accept: 'text/html' } }).then((response) => response.text());
      if (served === page || attempt >= 2) break;
      await app.close();
    }
  }, 300_000);
  afterAll(async () => {
    await browser?.close().catch(() => undefined);
    await app?.close();
    await llm?.close();
    if (pinned) await rm(pinned, { recursive: true, force: true });
  }, 60_000);
  return suite;
}
