import type { Page } from 'playwright-core';
import { truncateText } from '../shared/text.ts';
import { formatElement, listElements } from './elements.ts';
import type { TabRegistry } from './tabs.ts';

/** The most text one observation of the page state carries. */
export const MAX_STATE_CHARS = 30_000;

const ELEMENTS_CLIPPED =
  '<response clipped><NOTE>The page has more interactive elements than fit in one observation. Read the page ' +
  'with browser_get_content, or click one of the elements above to get to the part you need.</NOTE>';

/** Where the current tab is: its URL and title, and which tab it is. */
export async function whereText(page: Page, tabs: TabRegistry): Promise<string> {
  const title = await page.title().catch(() => '');
  const tabNote = tabs.size > 1 ? ` (${tabs.size} tabs open)` : '';
  return `Current tab: ${tabs.idOf(page) ?? '?'}${tabNote}\nURL: ${page.url()}\nTitle: ${title || '(none)'}`;
}

export interface PageState {
  text: string;
  screenshot?: string;
}

/** `browser_get_state`: where the tab is, its numbered interactive elements, how far it is scrolled. */
export async function pageState(page: Page, tabs: TabRegistry, screenshot: boolean): Promise<PageState> {
  const [where, list, scroll] = await Promise.all([whereText(page, tabs), listElements(page), scrollText(page)]);
  const lines = list.elements.map((element, index) => formatElement(index, element));
  const unlisted = list.total - list.elements.length;
  if (unlisted > 0) lines.push(`... and ${unlisted} more interactive elements`);
  const heading =
    list.total === 0
      ? 'The page has no interactive elements.'
      : `Interactive elements (${list.total}; use the number in brackets as \`index\` for browser_click and browser_type):`;
  const body = truncateText(
    [where, scroll, heading, ...lines].filter(Boolean).join('\n'),
    MAX_STATE_CHARS,
    ELEMENTS_CLIPPED,
  );
  if (!screenshot) return { text: body.text };
  const png = await page.screenshot({ type: 'png' });
  return {
    text: `${body.text}\n\nA screenshot of the visible part of the page is attached.`,
    screenshot: png.toString('base64'),
  };
}

async function scrollText(page: Page): Promise<string> {
  const position = await page
    .evaluate(
      '({ y: Math.round(window.scrollY), height: document.documentElement.scrollHeight, view: window.innerHeight })',
    )
    .catch(() => undefined);
  if (!position) return '';
  const { y, height, view } = position as { y: number; height: number; view: number };
  if (height <= view) return 'Scroll: the whole page fits in the window.';
  const below = Math.max(0, height - view - y);
  return `Scroll: ${y} px from the top; ${below} px more below (page ${height} px, window ${view} px).`;
}
