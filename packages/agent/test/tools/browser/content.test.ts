import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_CONTENT_CHARS } from '../../../src/tools/browser/content.ts';
import { type Harness, browserHarness, indexOf, textOf } from './harness.ts';
import { type TestSite, startTestSite } from './site.ts';

let site: TestSite;
let browser: Harness;

beforeAll(async () => {
  site = await startTestSite();
  browser = await browserHarness();
});

afterAll(async () => {
  await browser?.close();
  await site?.close();
});

/** Width and height from a PNG's IHDR chunk, after checking its signature and its chunk layout to IEND. */
function pngSize(png: Buffer): { width: number; height: number } {
  expect(png.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
  let offset = 8;
  const chunks: string[] = [];
  while (offset < png.length) {
    const length = png.readUInt32BE(offset);
    chunks.push(png.subarray(offset + 4, offset + 8).toString('latin1'));
    offset += 12 + length;
  }
  expect(offset).toBe(png.length);
  expect(chunks[0]).toBe('IHDR');
  expect(chunks).toContain('IDAT');
  expect(chunks.at(-1)).toBe('IEND');
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

describe('reading pages', () => {
  it('reads a page as markdown, without hidden text, with links only when asked', async () => {
    await browser.text('browser_navigate', { url: site.url });
    const plain = await browser.text('browser_get_content');
    expect(plain).toContain(`URL: ${site.url}/\nTitle: Home`);
    expect(plain).toContain('# Welcome home');
    expect(plain).toContain('Some text with a far link.');
    expect(plain).not.toContain('Invisible words');
    expect(plain).not.toContain('](');

    const linked = await browser.text('browser_get_content', { extract_links: true });
    expect(linked).toContain('[far link](https://example.invalid/x)');
    expect(linked).toContain(`[The form](${site.url}/form)`);
    expect(linked).not.toContain('/hidden');
  });

  it('reads article pages in reader mode: the main content, its table, without menus and sidebars', async () => {
    await browser.text('browser_navigate', { url: `${site.url}/article` });
    const text = await browser.text('browser_get_content', { extract_links: true });
    expect(text).toContain('(Reader mode: the main content of the page, without menus and sidebars.)');
    expect(text).toContain('Paragraph 11 of the long page.');
    expect(text).toContain('| Tool | Speed |');
    expect(text).toContain('| Chromium | fast |');
    expect(text).toContain(`[the about page](${site.url}/about)`);
    expect(text).not.toContain('Sidebar advertisement');
    expect(text).not.toContain('Menu item three');
  });

  it('pages through long content with start_from_char, and says how to read on', async () => {
    await browser.text('browser_navigate', { url: `${site.url}/long` });
    const first = await browser.text('browser_get_content');
    const total = Number(/\[Characters 0-30000 of (\d+)\./.exec(first)?.[1]);
    expect(total).toBeGreaterThan(2 * MAX_CONTENT_CHARS);
    expect(first).toContain('Call browser_get_content with start_from_char=30000 to read on.');
    expect(first.trimEnd()).toMatch(
      /\[Content truncated at character 30000 of \d+: call browser_get_content with start_from_char=30000 to read on\.\]$/,
    );
    expect(first).toContain('Paragraph 0 of the long page');

    const pieces: string[] = [];
    for (let start = 0; start < total; start += MAX_CONTENT_CHARS) {
      const part = await browser.text('browser_get_content', { start_from_char: start });
      const body = part
        .slice(part.indexOf('\n\n') + 2)
        .replace(/\n\n\[Content truncated at character \d+ of \d+: .*\]$/, '');
      expect(body.length).toBe(Math.min(MAX_CONTENT_CHARS, total - start));
      pieces.push(body);
    }
    const whole = pieces.join('');
    expect(whole.length).toBe(total);
    // Every paragraph exactly once, in order: the slices meet without gaps or overlaps.
    const numbers = [...whole.matchAll(/Paragraph (\d+) of the long page/g)].map((m) => Number(m[1]));
    expect(numbers).toEqual(Array.from({ length: 600 }, (_, i) => i));
    const last = await browser.text('browser_get_content', { start_from_char: total - 10 });
    expect(last).toContain('This is the end of the content.');

    const past = await browser.call('browser_get_content', { start_from_char: total + 5 });
    expect(past.is_error).toBe(true);
    expect(textOf(past)).toBe(
      `start_from_char ${total + 5} is past the end of the content (${total} characters); use a smaller value.`,
    );
  });

  it('reports the state with a screenshot that is a valid PNG of the window', async () => {
    await browser.text('browser_navigate', { url: `${site.url}/form` });
    const withoutShot = await browser.call('browser_get_state');
    expect(withoutShot.screenshot_data).toBeUndefined();

    const state = await browser.call('browser_get_state', { include_screenshot: true });
    expect(textOf(state)).toContain('Interactive elements (6; use the number in brackets');
    expect(textOf(state)).toContain('A screenshot of the visible part of the page is attached.');
    const png = Buffer.from(state.screenshot_data as string, 'base64');
    expect(pngSize(png)).toEqual({ width: 1280, height: 720 });
    expect(png.length).toBeGreaterThan(2_000);
  });

  it('scrolls down and up, and says where the page is', async () => {
    await browser.text('browser_navigate', { url: `${site.url}/tall` });
    const state = await browser.text('browser_get_state');
    expect(state).toMatch(/Scroll: 0 px from the top; \d+ px more below/);
    const down = await browser.text('browser_scroll');
    expect(down).toMatch(/^Scrolled the page down: now 576 px from the top, \d+ px more below\./);
    const up = await browser.text('browser_scroll', { direction: 'up' });
    expect(up).toMatch(/^Scrolled the page up: now 0 px from the top/);
    expect(await browser.text('browser_scroll', { direction: 'up' })).toBe('Already at the top of the page.');
    for (let i = 0; i < 10; i++) await browser.text('browser_scroll');
    expect(await browser.text('browser_scroll')).toMatch(/^Already at the bottom of the page/);
    // The element at the bottom is still clickable by its index.
    const clicked = await browser.text('browser_click', { index: indexOf(state, 'Bottom link') });
    expect(clicked).toContain('Title: Home');
  });
});
