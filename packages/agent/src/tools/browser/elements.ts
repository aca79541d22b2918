import type { ElementHandle, Page } from 'playwright-core';
import { ELEMENT_AT_SCRIPT, LIST_ELEMENTS_SCRIPT } from './elements-script.ts';
import { callInPage, handleInPage } from './in-page.ts';
import { BrowserProblem } from './observation.ts';

export interface ElementDescription {
  tag: string;
  attributes: [string, string][];
  text: string;
}

export interface ElementList {
  /** How many interactive elements the page has (more than `elements` when there are very many). */
  total: number;
  elements: ElementDescription[];
}

const LIMITS = { maxText: 100, maxAttribute: 100, maxElements: 2_000 };
const VOID_TAGS = new Set(['input', 'img']);

/** Lists (and numbers, for clicks and typing) the visible interactive elements of the page. */
export function listElements(page: Page): Promise<ElementList> {
  return callInPage<ElementList>(page, LIST_ELEMENTS_SCRIPT, LIMITS);
}

/** One element as the LLM reads it: `[3]<input type="text" name="q" placeholder="Search">`. */
export function formatElement(index: number, element: ElementDescription): string {
  const attributes = element.attributes
    .map(([name, value]) => (value === '' ? ` ${name}` : ` ${name}="${value.replaceAll('"', '&quot;')}"`))
    .join('');
  const open = `[${index}]<${element.tag}${attributes}>`;
  return VOID_TAGS.has(element.tag) ? open : `${open}${element.text}</${element.tag}>`;
}

/**
 * The element at `index` of the page's last listing. A document that was never listed (the agent clicks right
 * after a navigation) is listed first; the numbering is the same as browser_get_state's for an unchanged page.
 */
export async function elementAt(page: Page, index: number): Promise<ElementHandle> {
  let handle = await handleInPage(page, ELEMENT_AT_SCRIPT, index);
  let reason = await reasonOf(handle);
  if (reason === 'unlisted') {
    await listElements(page);
    handle = await handleInPage(page, ELEMENT_AT_SCRIPT, index);
    reason = await reasonOf(handle);
  }
  const element = handle.asElement();
  if (element) return element;
  if (reason === 'detached') {
    throw new BrowserProblem(
      `Element ${index} is no longer on the page (the page changed). Call browser_get_state to list the current elements.`,
    );
  }
  const count = Number(reason?.split(':')[1] ?? 0);
  const has =
    count === 0
      ? 'the page has no interactive elements'
      : `the page has ${count} interactive element${count === 1 ? '' : 's'} (indexes 0-${count - 1})`;
  throw new BrowserProblem(`There is no element with index ${index}: ${has}. Call browser_get_state to list them.`);
}

async function reasonOf(handle: Awaited<ReturnType<typeof handleInPage>>): Promise<string | undefined> {
  if (handle.asElement()) return undefined;
  const value = await handle.jsonValue();
  await handle.dispose();
  return typeof value === 'string' ? value : undefined;
}
