import type { BrowserContext, Page, Request } from 'playwright-core';

/**
 * How long after an action a new tab it opened from a script (`window.open`) may take to appear. Playwright's
 * click already waits for the navigations it starts; a tab takes a few tens of milliseconds more.
 */
const POPUP_GRACE_MS = 40;
/** How long a click on a link or form that targets a new tab waits for that tab. */
const EXPECTED_POPUP_MS = 2_000;
/** How long after its request finished a navigation that never committed (a 204, a download) is given up. */
const NO_COMMIT_GRACE_MS = 100;

export interface Settled<T> {
  result: T;
  /** The main frame went to another document, or to another URL of the same one. */
  navigated: boolean;
  /** Still loading when the timeout ran out. */
  timedOut: boolean;
  /** A tab the action opened. */
  popup: Page | undefined;
}

/**
 * Runs an action (a click, going back) and waits for what it set off: a navigation of the page up to its
 * DOMContentLoaded, or a new tab. Waiting for the load state alone would answer too early: until the new
 * document commits, the old one is still there, loaded.
 */
export async function settleAfter<T>(
  page: Page,
  context: BrowserContext,
  timeoutMs: number,
  act: () => Promise<T>,
  options: { expectPopup?: boolean } = {},
): Promise<Settled<T>> {
  let navigationRequest: Request | undefined;
  let navigationEnded = false;
  let committed = false;
  let popup: Page | undefined;
  let wake: () => void = () => undefined;
  const changed = () => wake();
  const onRequest = (request: Request) => {
    if (!request.isNavigationRequest() || request.frame() !== page.mainFrame()) return;
    navigationRequest = request;
    navigationEnded = false;
  };
  const onNavigated = (frame: unknown) => {
    if (frame === page.mainFrame()) committed = true;
    changed();
  };
  const onRequestEnd = (request: Request) => {
    if (request !== navigationRequest) return;
    setTimeout(() => {
      if (request === navigationRequest) navigationEnded = true;
      changed();
    }, NO_COMMIT_GRACE_MS);
  };
  const onPage = (opened: Page) => {
    popup ??= opened;
    changed();
  };
  page.on('request', onRequest);
  page.on('framenavigated', onNavigated);
  page.on('requestfinished', onRequestEnd);
  page.on('requestfailed', onRequestEnd);
  context.on('page', onPage);
  try {
    const result = await act();
    const popupWait = options.expectPopup ? Math.min(EXPECTED_POPUP_MS, timeoutMs) : POPUP_GRACE_MS;
    if (!popup) {
      await new Promise<void>((resolve) => {
        wake = resolve;
        setTimeout(resolve, popupWait);
      });
    }
    const deadline = Date.now() + timeoutMs;
    let timedOut = false;
    // A navigation that started: wait for it to commit (or to end without a document).
    while (navigationRequest && !committed && !navigationEnded) {
      const left = deadline - Date.now();
      if (left <= 0) {
        timedOut = true;
        break;
      }
      await new Promise<void>((resolve) => {
        wake = resolve;
        setTimeout(resolve, Math.min(left, 250));
      });
    }
    if (committed && !timedOut) {
      timedOut = !(await loaded(page, Math.max(1, deadline - Date.now())));
    }
    if (popup) await loaded(popup, Math.max(1, deadline - Date.now()));
    return { result, navigated: committed, timedOut, popup };
  } finally {
    page.off('request', onRequest);
    page.off('framenavigated', onNavigated);
    page.off('requestfinished', onRequestEnd);
    page.off('requestfailed', onRequestEnd);
    context.off('page', onPage);
  }
}

/** Waits for DOMContentLoaded; false when the timeout ran out first. */
async function loaded(page: Page, timeoutMs: number): Promise<boolean> {
  try {
    await page.waitForLoadState('domcontentloaded', { timeout: timeoutMs });
    return true;
  } catch {
    return page.isClosed();
  }
}
