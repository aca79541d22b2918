import type { ActionOf } from '@bosun/protocol';
import type { Page } from 'playwright-core';
import { callInPage } from './in-page.ts';
import { BrowserProblem } from './observation.ts';
import { READ_PAGE_SCRIPT, readerLoaderScript } from './reader-script.ts';

type GetContentAction = ActionOf<'BrowserGetContentAction'>;

/** The most characters of content one observation carries; the rest is read with `start_from_char`. */
export const MAX_CONTENT_CHARS = 30_000;

interface PageText {
  total: number;
  text: string;
  reader: boolean;
}

/** `browser_get_content`: the page as markdown, one slice at a time. */
export async function pageContent(page: Page, action: GetContentAction, maxChars = MAX_CONTENT_CHARS): Promise<string> {
  const start = action.start_from_char ?? 0;
  await page.evaluate(readerLoaderScript());
  const read = await callInPage<PageText>(page, READ_PAGE_SCRIPT, {
    extractLinks: action.extract_links ?? false,
    start,
    max: maxChars,
  });
  const header = [`URL: ${page.url()}`, `Title: ${(await page.title().catch(() => '')) || '(none)'}`];
  if (read.reader) header.push('(Reader mode: the main content of the page, without menus and sidebars.)');
  if (read.total === 0) return `${header.join('\n')}\n\nThe page has no text.`;
  if (start >= read.total) {
    throw new BrowserProblem(
      `start_from_char ${start} is past the end of the content (${read.total} characters); use a smaller value.`,
    );
  }
  const end = start + read.text.length;
  if (start > 0 || end < read.total) {
    const more =
      end < read.total
        ? ` Call browser_get_content with start_from_char=${end} to read on.`
        : ' This is the end of the content.';
    header.push(`[Characters ${start}-${end} of ${read.total}.${more}]`);
  }
  const tail =
    end < read.total
      ? `\n\n[Content truncated at character ${end} of ${read.total}: call browser_get_content with start_from_char=${end} to read on.]`
      : '';
  return `${header.join('\n')}\n\n${read.text}${tail}`;
}
