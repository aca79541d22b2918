import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closedPort } from '../../../../sources/test/support/closed-port.ts';
import { normalizeUrl } from '../../../src/tools/browser/navigation.ts';
import { type Harness, browserHarness, indexOf, textOf } from './harness.ts';
import { type TestSite, startTestSite } from './site.ts';

let site: TestSite;
let browser: Harness;

beforeAll(async () => {
  site = await startTestSite();
  browser = await browserHarness({ navigationTimeoutMs: 1_500 });
});

afterAll(async () => {
  await browser?.close();
  await site?.close();
});

describe('browser navigation, forms and tabs', () => {
  it('fills a form and submits it: text, password, drop-down list, checkbox, text area', async () => {
    const opened = await browser.text('browser_navigate', { url: `${site.url}/form` });
    expect(opened).toContain(`Navigated to ${site.url}/form`);
    expect(opened).toContain('Title: The form');

    const state = await browser.text('browser_get_state');
    expect(state).toContain('[0]<input type="text" name="name" placeholder="Your name">');
    const name = indexOf(state, 'name="name"');
    const password = indexOf(state, 'type="password"');
    const color = indexOf(state, '<select');
    const news = indexOf(state, 'type="checkbox"');
    const note = indexOf(state, '<textarea');
    const submit = indexOf(state, 'Sign up</button>');
    expect(state).toContain('<select name="color">*Red | Green | Blue</select>');

    expect(await browser.text('browser_type', { index: name, text: 'Ada' })).toBe(`Typed "Ada" into element ${name}.`);
    // A secret typed into a page never comes back in an observation.
    await browser.text('browser_type', { index: password, text: 'hunter2-secret' });
    expect(await browser.text('browser_type', { index: color, text: 'Green' })).toContain('Selected "g"');
    const checkboxTyped = await browser.call('browser_type', { index: news, text: 'yes' });
    expect(checkboxTyped.is_error).toBe(true);
    expect(await browser.text('browser_click', { index: news })).toContain(`Clicked element ${news}.`);
    await browser.text('browser_type', { index: note, text: 'line one\nline two' });

    const filled = await browser.text('browser_get_state');
    expect(filled).toContain('value="Ada"');
    expect(filled).toContain('value="<hidden>"');
    expect(filled).not.toContain('hunter2');
    expect(filled).toContain('*Green');
    expect(filled).toMatch(/type="checkbox" name="news" value="yes" checked>/);

    const clickedSelect = await browser.call('browser_click', { index: color });
    expect(clickedSelect.is_error).toBe(true);
    expect(clickedSelect.content[0]).toMatchObject({ text: expect.stringContaining('browser_type') });

    const submitted = await browser.text('browser_click', { index: submit });
    expect(submitted).toContain(`The page navigated to ${site.url}/submit.`);
    expect(submitted).toContain('Title: Thanks');
    expect(site.submissions.at(-1)).toEqual({
      name: 'Ada',
      password: 'hunter2-secret',
      color: 'g',
      news: 'yes',
      note: 'line one\r\nline two',
    });
    const content = await browser.text('browser_get_content');
    expect(content).toContain('# Thanks, Ada!');
    expect(content).toContain('Color: g; news: yes');
  });

  it('follows links, goes back, and says when there is no page to go back to', async () => {
    // A tab of its own: its history starts here.
    const opened = await browser.text('browser_navigate', { url: site.url, new_tab: true });
    const tabId = /Opened a new tab \((\w{4})\)/.exec(opened)?.[1] as string;
    const state = await browser.text('browser_get_state');
    // Hidden and disabled elements: the hidden link is not listed, the disabled button is, marked.
    expect(state).not.toContain('Hidden link');
    expect(state).toContain('<button disabled>Disabled button</button>');
    expect(state).toContain('<span>Clickable span</span>');

    const followed = await browser.text('browser_click', { index: indexOf(state, '>About us</a>') });
    expect(followed).toContain(`The page navigated to ${site.url}/about.`);
    expect(followed).toContain('Title: About');
    // Clicking right after a navigation works without listing first: the page is listed on demand.
    const home = await browser.text('browser_click', { index: 0 });
    expect(home).toContain(`${site.url}/`);
    expect(home).toContain('Title: Home');

    const back = await browser.text('browser_go_back');
    expect(back).toContain(`Went back to ${site.url}/about`);
    expect(await browser.text('browser_go_back')).toContain(`Went back to ${site.url}/.`);
    // A new tab starts blank.
    expect(await browser.text('browser_go_back')).toContain('Went back to about:blank.');
    const none = await browser.call('browser_go_back');
    expect(none.is_error).toBe(true);
    expect(none.content[0]).toMatchObject({ text: "There is no previous page in this tab's history." });

    // A click that does not navigate answers at once, and its effect is on the page.
    await browser.text('browser_navigate', { url: site.url });
    const spanState = await browser.text('browser_get_state');
    const span = await browser.text('browser_click', { index: indexOf(spanState, 'Clickable span') });
    expect(span).not.toContain('navigated');
    expect(await browser.text('browser_get_content')).toContain('span clicked');
    await browser.text('browser_close_tab', { tab_id: tabId });
  });

  it('accepts the dialogs a page shows, and says so', async () => {
    await browser.text('browser_navigate', { url: `${site.url}/confirm` });
    const clicked = await browser.text('browser_click', { index: 0 });
    expect(clicked).toMatch(
      /^The page showed a confirm dialog: "Delete everything\?"; it was accepted\.\n\nClicked element 0\./,
    );
    expect(await browser.text('browser_get_content')).toContain('confirmed');
    expect(await browser.text('browser_list_tabs')).not.toContain('dialog');
  });

  it('rejects element indexes that do not exist, and elements that left the page', async () => {
    await browser.text('browser_navigate', { url: `${site.url}/about` });
    const missing = await browser.call('browser_click', { index: 99 });
    expect(missing.is_error).toBe(true);
    expect(missing.content[0]).toMatchObject({
      text: 'There is no element with index 99: the page has 1 interactive element (indexes 0-0). Call browser_get_state to list them.',
    });

    await browser.text('browser_navigate', { url: `${site.url}/vanish` });
    const state = await browser.text('browser_get_state');
    expect(state).toContain('[1]<a href="/about">Soon gone</a>');
    await browser.text('browser_click', { index: 0 });
    const gone = await browser.call('browser_click', { index: 1 });
    expect(gone.is_error).toBe(true);
    expect(gone.content[0]).toMatchObject({
      text: 'Element 1 is no longer on the page (the page changed). Call browser_get_state to list the current elements.',
    });
  });

  it('opens and manages two tabs: new_tab navigation, target=_blank, list, switch, close', async () => {
    await browser.text('browser_navigate', { url: site.url });
    const first = await browser.text('browser_list_tabs');
    const firstId = /^(\w{4}) \(current\)/m.exec(first)?.[1] as string;
    expect(firstId).toMatch(/^[0-9a-f]{4}$/);

    const opened = await browser.text('browser_navigate', { url: `${site.url}/form`, new_tab: true });
    const secondId = /Opened a new tab \((\w{4})\)/.exec(opened)?.[1] as string;
    expect(secondId).toMatch(/^[0-9a-f]{4}$/);
    expect(secondId).not.toBe(firstId);
    const listed = await browser.text('browser_list_tabs');
    expect(listed).toContain(`${firstId}: Home - ${site.url}/`);
    expect(listed).toContain(`${secondId} (current): The form - ${site.url}/form`);

    const switched = await browser.text('browser_switch_tab', { tab_id: firstId });
    expect(switched).toContain(`Switched to tab ${firstId}.`);
    expect(switched).toContain('Title: Home');

    // A target=_blank link opens a third tab, which becomes current.
    const state = await browser.text('browser_get_state');
    const popup = await browser.text('browser_click', { index: indexOf(state, 'About (new tab)') });
    expect(popup).toMatch(/The click opened a new tab \(\w{4}\), now the current tab\./);
    expect(popup).toContain('Title: About');
    const thirdId = /opened a new tab \((\w{4})\)/.exec(popup)?.[1] as string;

    // new_tab on a link: Ctrl+click.
    await browser.text('browser_switch_tab', { tab_id: firstId });
    const homeState = await browser.text('browser_get_state');
    const ctrl = await browser.text('browser_click', { index: indexOf(homeState, '>The form</a>'), new_tab: true });
    const fourthId = /Opened its link in a new tab \((\w{4})\)/.exec(ctrl)?.[1] as string;
    expect(ctrl).toContain('Title: The form');

    const unknown = await browser.call('browser_switch_tab', { tab_id: 'zzzz' });
    expect(unknown.is_error).toBe(true);
    expect(unknown.content[0]).toMatchObject({ text: expect.stringContaining("There is no tab 'zzzz'. Open tabs:") });
    const badId = await browser.tools.find((t) => t.name === 'browser_switch_tab');
    expect(badId?.parameters).toMatchObject({ properties: { tab_id: { minLength: 4, maxLength: 4 } } });

    for (const id of [thirdId, fourthId, secondId]) {
      expect(await browser.text('browser_close_tab', { tab_id: id })).toContain(`Closed tab ${id}.`);
    }
    const last = await browser.text('browser_list_tabs');
    expect(last).toBe(`1 open tab:\n${firstId} (current): Home - ${site.url}/`);
  });

  it('turns a page that never loads into a timeout error, and unreachable servers into errors', async () => {
    const started = Date.now();
    const timedOut = await browser.call('browser_navigate', { url: `${site.url}/never` });
    expect(timedOut.is_error).toBe(true);
    expect(timedOut.content[0]).toMatchObject({
      text: expect.stringMatching(/^Navigation to http:\/\/127\.0\.0\.1:\d+\/never timed out after 1\.5 s/),
    });
    expect(Date.now() - started).toBeLessThan(5_000);

    // The browser is still usable afterwards.
    expect(await browser.text('browser_navigate', { url: `${site.url}/about` })).toContain('Title: About');

    const port = await closedPort();
    const refused = await browser.call('browser_navigate', { url: `http://127.0.0.1:${port}/` });
    expect(refused.is_error).toBe(true);
    expect(refused.content[0]).toMatchObject({
      text: `Could not open http://127.0.0.1:${port}/: net::ERR_CONNECTION_REFUSED.`,
    });

    const notFound = await browser.call('browser_navigate', { url: `${site.url}/nowhere` });
    expect(notFound.is_error).toBe(false);
    expect(notFound.content[0]).toMatchObject({ text: expect.stringContaining('/nowhere (HTTP 404 Not Found).') });

    const script = await browser.call('browser_navigate', { url: 'javascript:alert(1)' });
    expect(script.is_error).toBe(true);
  });

  it('stops waiting for a navigation when the run is stopped, and runs nothing once it is', async () => {
    const stop = new AbortController();
    const started = Date.now();
    setTimeout(() => stop.abort(), 200);
    const stopped = await browser.call('browser_navigate', { url: `${site.url}/never` }, stop.signal);
    expect(Date.now() - started).toBeLessThan(1_400);
    expect(stopped.is_error).toBe(true);
    expect(textOf(stopped)).toBe('The navigation was stopped because the run was stopped.');
    const after = await browser.call('browser_get_state', {}, stop.signal);
    expect(textOf(after)).toBe('The browser action was not run: the run was stopped.');
    expect(await browser.text('browser_navigate', { url: `${site.url}/about` })).toContain('Title: About');
  });
});

describe('normalizeUrl', () => {
  it('adds a scheme to bare hosts (http for local ones) and refuses other schemes', () => {
    expect(normalizeUrl(' example.com/a ')).toBe('https://example.com/a');
    expect(normalizeUrl('localhost:3000')).toBe('http://localhost:3000/');
    expect(normalizeUrl('127.0.0.1:8080/x')).toBe('http://127.0.0.1:8080/x');
    expect(normalizeUrl('http://a.test/b?c')).toBe('http://a.test/b?c');
    expect(normalizeUrl('file:///tmp/x.html')).toBe('file:///tmp/x.html');
    expect(normalizeUrl('about:blank')).toBe('about:blank');
    expect(() => normalizeUrl('')).toThrow('The URL is empty.');
    expect(() => normalizeUrl('chrome://settings')).toThrow("Cannot open 'chrome:' URLs");
    expect(() => normalizeUrl('javascript:alert(1)')).toThrow("Cannot open 'javascript:' URLs");
  });
});
