import type { ActionOf } from '@bosun/protocol';
import { elementAt } from './elements.ts';
import { callInPage } from './in-page.ts';
import { goto } from './navigation.ts';
import { BrowserProblem } from './observation.ts';
import { whereText } from './page-state.ts';
import type { BrowserSession, SessionLease } from './session.ts';
import { settleAfter } from './settle.ts';

type ClickAction = ActionOf<'BrowserClickAction'>;
type TypeAction = ActionOf<'BrowserTypeAction'>;
type ScrollAction = ActionOf<'BrowserScrollAction'>;

interface ElementKind {
  tag: string;
  type: string;
  /** The URL of the link the element is or is in. */
  href: string;
  /** The link (or the form the element submits) targets another browsing context: a new tab. */
  opensTab: boolean;
}

/** `browser_click`: clicks the element, then waits for the navigation or the new tab the click caused. */
export async function click(session: BrowserSession, lease: SessionLease, action: ClickAction): Promise<string> {
  const page = await lease.page();
  const element = await elementAt(page, action.index);
  const kind = await kindOf(element);
  if (kind.tag === 'select') {
    throw new BrowserProblem(
      `Element ${action.index} is a drop-down list: choose an option with browser_type (index ${action.index}, text = the option as it is shown).`,
    );
  }
  const lines = [`Clicked element ${action.index}.`];
  if (action.new_tab && kind.href) {
    // A link to open in a new tab: what Ctrl+click does, without waiting for a background tab to appear.
    const tab = await session.openTab(lease.context);
    await goto(tab, kind.href, session.navigationTimeoutMs);
    lines.push(`Opened its link in a new tab (${lease.tabs.idOf(tab)}), now the current tab.`);
    lines.push(await whereText(tab, lease.tabs));
    return lines.join('\n');
  }
  const settled = await settleAfter(
    page,
    lease.context,
    session.navigationTimeoutMs,
    () => element.click(action.new_tab ? { modifiers: ['ControlOrMeta'] } : {}),
    { expectPopup: kind.opensTab },
  );
  if (settled.popup) {
    lease.tabs.setCurrent(settled.popup);
    lines.push(`The click opened a new tab (${lease.tabs.idOf(settled.popup)}), now the current tab.`);
    lines.push(await whereText(settled.popup, lease.tabs));
    return lines.join('\n');
  }
  if (action.new_tab) lines.push('No new tab was opened (the element is not a link); the click went to this tab.');
  if (settled.navigated) lines.push(`The page navigated to ${page.url()}.`);
  if (settled.timedOut) {
    lines.push(`The new page was still loading after ${session.navigationTimeoutMs / 1000} s.`);
  }
  lines.push(await whereText(page, lease.tabs));
  return lines.join('\n');
}

/** `browser_type`: replaces the text of an input (or picks the option of a drop-down list). */
export async function type(lease: SessionLease, action: TypeAction): Promise<string> {
  const page = await lease.page();
  const element = await elementAt(page, action.index);
  const kind = await kindOf(element);
  if (kind.tag === 'select') {
    const chosen = await element
      .selectOption({ label: action.text })
      .catch(() => element.selectOption({ value: action.text }));
    return `Selected ${JSON.stringify(chosen[0] ?? action.text)} in element ${action.index}.`;
  }
  if (kind.tag === 'input' && ['checkbox', 'radio', 'submit', 'button', 'reset', 'image', 'file'].includes(kind.type)) {
    throw new BrowserProblem(`Element ${action.index} is an <input type="${kind.type}">: use browser_click on it.`);
  }
  await element.fill(action.text);
  return `Typed ${quoteShort(action.text)} into element ${action.index}.`;
}

const SCROLL_SCRIPT = `(direction) => {
  const sign = direction === 'up' ? -1 : 1;
  const page = document.scrollingElement || document.documentElement;
  const step = Math.round(window.innerHeight * 0.8);
  const before = page.scrollTop;
  window.scrollBy({ top: sign * step, behavior: 'instant' });
  if (page.scrollTop !== before) {
    return { target: 'page', top: Math.round(page.scrollTop), height: page.scrollHeight, view: window.innerHeight };
  }
  // The page itself does not move (an app whose content scrolls in a panel): scroll the largest panel.
  let best = null;
  let bestArea = 0;
  for (const el of document.querySelectorAll('*')) {
    if (el.scrollHeight <= el.clientHeight + 1) continue;
    const overflow = getComputedStyle(el).overflowY;
    if (overflow !== 'auto' && overflow !== 'scroll') continue;
    const rect = el.getBoundingClientRect();
    const area = rect.width * rect.height;
    if (area > bestArea) { best = el; bestArea = area; }
  }
  if (!best) return { target: 'none', top: Math.round(page.scrollTop), height: page.scrollHeight, view: window.innerHeight };
  const panelStep = Math.round(best.clientHeight * 0.8);
  best.scrollBy({ top: sign * panelStep, behavior: 'instant' });
  return { target: 'panel', top: Math.round(best.scrollTop), height: best.scrollHeight, view: best.clientHeight };
}`;

/** `browser_scroll`: most of a window's height up or down (the page, or the main scrolling panel). */
export async function scroll(lease: SessionLease, action: ScrollAction): Promise<string> {
  const page = await lease.page();
  const direction = action.direction ?? 'down';
  const at = await callInPage<{ target: string; top: number; height: number; view: number }>(
    page,
    SCROLL_SCRIPT,
    direction,
  );
  const below = Math.max(0, at.height - at.view - at.top);
  const where = `${at.top} px from the top, ${below} px more below`;
  if (at.target === 'none') {
    if (direction === 'down' && below === 0) return `Already at the bottom of the page (${where}).`;
    if (direction === 'up' && at.top === 0) return 'Already at the top of the page.';
    return `The page did not scroll ${direction} (${where}).`;
  }
  const what = at.target === 'panel' ? 'the scrolling panel' : 'the page';
  return `Scrolled ${what} ${direction}: now ${where}. Call browser_get_state to see the elements.`;
}

function kindOf(element: Awaited<ReturnType<typeof elementAt>>): Promise<ElementKind> {
  return element.evaluate((el) => {
    const node = el as unknown as {
      tagName: string;
      type?: unknown;
      form?: { target: string } | null;
      closest(selector: string): { href: string; target: string } | null;
    };
    const link = node.closest('a[href]');
    const target = (link ? link.target : node.type === 'submit' ? node.form?.target : '') ?? '';
    return {
      tag: node.tagName.toLowerCase(),
      type: typeof node.type === 'string' ? node.type.toLowerCase() : '',
      href: link?.href ?? '',
      opensTab: target !== '' && !['_self', '_parent', '_top'].includes(target.toLowerCase()),
    };
  });
}

function quoteShort(text: string): string {
  return JSON.stringify(text.length > 200 ? `${text.slice(0, 200)}...` : text);
}
