import type { JSHandle, Page } from 'playwright-core';

/**
 * Calls a function given as JavaScript source text in the page with one JSON argument. The call is one
 * expression sent over the DevTools protocol, so a page's Content-Security-Policy does not block it.
 */
export function callInPage<T>(page: Page, source: string, argument?: unknown): Promise<T> {
  return page.evaluate(expression(source, argument)) as Promise<T>;
}

/** As `callInPage`, returning a handle to the result (an element stays in the page). */
export function handleInPage(page: Page, source: string, argument?: unknown): Promise<JSHandle> {
  return page.evaluateHandle(expression(source, argument));
}

function expression(source: string, argument: unknown): string {
  return `(${source})(${argument === undefined ? '' : JSON.stringify(argument)})`;
}
