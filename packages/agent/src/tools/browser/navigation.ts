import type { ActionOf } from '@bosun/protocol';
import type { Frame, Page, Response } from 'playwright-core';
import { BrowserProblem, isTimeoutError } from './observation.ts';
import { whereText } from './page-state.ts';
import type { BrowserSession, SessionLease } from './session.ts';
import { settleAfter } from './settle.ts';

type NavigateAction = ActionOf<'BrowserNavigateAction'>;

const SCHEME = /^[a-z][a-z0-9+.-]*:/i;
const ALLOWED_SCHEMES = new Set(['http:', 'https:', 'file:', 'about:', 'data:']);
const LOCAL_HOST = /^(localhost|127\.\d+\.\d+\.\d+|\[::1\]|0\.0\.0\.0|\d+\.\d+\.\d+\.\d+)(:\d+)?(\/|$)/i;

/**
 * The URL to open: as given when it has a scheme Chromium should open for the agent; a bare host gets
 * `http://` when it is local (a dev server) and `https://` otherwise.
 */
export function normalizeUrl(raw: string): string {
  const trimmed = raw.trim();
  if (!trimmed) throw new BrowserProblem('The URL is empty.');
  const withScheme =
    SCHEME.test(trimmed) && !/^[^/:]+:\d+(\/|$)/.test(trimmed)
      ? trimmed
      : `${LOCAL_HOST.test(trimmed) ? 'http' : 'https'}://${trimmed}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    throw new BrowserProblem(`'${trimmed}' is not a valid URL.`);
  }
  if (!ALLOWED_SCHEMES.has(url.protocol)) {
    throw new BrowserProblem(`Cannot open '${url.protocol}' URLs; use http, https, file, about or data URLs.`);
  }
  return url.href;
}

/** `browser_navigate`: opens the URL in the current tab (or a new one) and waits for its DOMContentLoaded. */
export async function navigate(
  session: BrowserSession,
  lease: SessionLease,
  action: NavigateAction,
  signal: AbortSignal,
): Promise<string> {
  const url = normalizeUrl(action.url);
  const page = action.new_tab ? await session.openTab(lease.context) : await lease.page();
  const response = await stoppable(page, signal, () => goto(page, url, session.navigationTimeoutMs));
  const opened = action.new_tab ? `Opened a new tab (${lease.tabs.idOf(page)}), now the current tab.\n` : '';
  return `${opened}Navigated to ${page.url()}${statusNote(response)}.\n${await whereText(page, lease.tabs)}`;
}

/** `browser_go_back`: one step back in the current tab's history. */
export async function goBack(session: BrowserSession, lease: SessionLease): Promise<string> {
  const page = await lease.page();
  const before = page.url();
  const settled = await settleAfter(page, lease.context, session.navigationTimeoutMs, () =>
    page.goBack({ waitUntil: 'commit', timeout: session.navigationTimeoutMs }),
  );
  if (!settled.result && page.url() === before) {
    throw new BrowserProblem("There is no previous page in this tab's history.");
  }
  const loading = settled.timedOut ? ' (still loading)' : '';
  return `Went back to ${page.url()}${loading}.\n${await whereText(page, lease.tabs)}`;
}

/** `page.goto` up to DOMContentLoaded; timeouts and network errors become problems the LLM reads. */
export async function goto(page: Page, url: string, timeoutMs: number): Promise<Response | null> {
  let errorPageShown = false;
  const onNavigated = (frame: Frame) => {
    if (frame === page.mainFrame() && frame.url().startsWith('chrome-error:')) errorPageShown = true;
  };
  page.on('framenavigated', onNavigated);
  try {
    return await page.goto(url, { waitUntil: 'domcontentloaded', timeout: timeoutMs });
  } catch (error) {
    if (isTimeoutError(error)) {
      throw new BrowserProblem(
        `Navigation to ${url} timed out after ${timeoutMs / 1000} s: the page did not finish loading. The server may be slow or not answering; try again, or call browser_get_content to see what arrived.`,
      );
    }
    const reason = /net::ERR_[A-Z_]+/.exec((error as Error).message)?.[0];
    if (!reason) throw error;
    // Chromium shows its error page a moment after the failure; until it has, that commit would cancel the
    // next navigation of the tab.
    if (!errorPageShown) {
      await page
        .waitForEvent('framenavigated', { predicate: (frame) => frame === page.mainFrame(), timeout: 1_000 })
        .catch(() => undefined);
    }
    throw new BrowserProblem(`Could not open ${url}: ${reason}.`);
  } finally {
    page.off('framenavigated', onNavigated);
  }
}

/** Stops waiting (and stops the page loading) when the run is stopped. */
async function stoppable<T>(page: Page, signal: AbortSignal, work: () => Promise<T>): Promise<T> {
  if (signal.aborted) throw new BrowserProblem('The navigation was not started: the run was stopped.');
  let onAbort: () => void = () => undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => {
      void page.evaluate('window.stop()').catch(() => undefined);
      reject(new BrowserProblem('The navigation was stopped because the run was stopped.'));
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
  const running = work();
  try {
    return await Promise.race([running, aborted]);
  } finally {
    signal.removeEventListener('abort', onAbort);
    running.catch(() => undefined);
  }
}

function statusNote(response: Response | null): string {
  if (!response || response.status() < 400) return '';
  return ` (HTTP ${response.status()}${response.statusText() ? ` ${response.statusText()}` : ''})`;
}
