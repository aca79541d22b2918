import type { ActionOf } from '@bosun/protocol';
import { BrowserProblem } from './observation.ts';
import { whereText } from './page-state.ts';
import type { SessionLease } from './session.ts';

type SwitchTabAction = ActionOf<'BrowserSwitchTabAction'>;
type CloseTabAction = ActionOf<'BrowserCloseTabAction'>;

/** `browser_list_tabs`: every open tab with its id, URL and title; the current one marked. */
export async function listTabs(lease: SessionLease): Promise<string> {
  const tabs = lease.tabs.list();
  if (tabs.length === 0) return 'No tabs are open; browser_navigate opens one.';
  const current = lease.tabs.current;
  const lines = await Promise.all(
    tabs.map(async ({ id, page }) => {
      const title = await page.title().catch(() => '');
      return `${id}${page === current ? ' (current)' : ''}: ${title || '(no title)'} - ${page.url()}`;
    }),
  );
  return `${tabs.length} open tab${tabs.length === 1 ? '' : 's'}:\n${lines.join('\n')}`;
}

/** `browser_switch_tab`: makes a tab current (and brings it to the front). */
export async function switchTab(lease: SessionLease, action: SwitchTabAction): Promise<string> {
  const page = tabOf(lease, action.tab_id);
  lease.tabs.setCurrent(page);
  await page.bringToFront();
  return `Switched to tab ${lease.tabs.idOf(page)}.\n${await whereText(page, lease.tabs)}`;
}

/** `browser_close_tab`: closes a tab; closing the current one makes the most recently opened one current. */
export async function closeTab(lease: SessionLease, action: CloseTabAction): Promise<string> {
  const page = tabOf(lease, action.tab_id);
  const id = lease.tabs.idOf(page);
  await page.close();
  const current = lease.tabs.current;
  if (!current) return `Closed tab ${id}. No tabs are open now; browser_navigate opens one.`;
  return `Closed tab ${id}.\n${await whereText(current, lease.tabs)}`;
}

function tabOf(lease: SessionLease, tabId: string) {
  const page = lease.tabs.get(tabId);
  if (page && !page.isClosed()) return page;
  const open = lease.tabs.list().map(({ id }) => id);
  throw new BrowserProblem(
    `There is no tab '${tabId}'. ${open.length ? `Open tabs: ${open.join(', ')}.` : 'No tabs are open.'} Call browser_list_tabs to see them.`,
  );
}
