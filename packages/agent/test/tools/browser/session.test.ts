import { execFileSync } from 'node:child_process';
import { readFile, readdir } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RECORDINGS_DIR } from '../../../src/tools/browser/recording.ts';
import { BROWSER_REPLACED, BROWSER_RESTARTED } from '../../../src/tools/browser/session.ts';
import { createToolset } from '../../../src/tools/registry.ts';
import { type Harness, browserHarness, textOf } from './harness.ts';
import { type TestSite, startTestSite } from './site.ts';

let site: TestSite;
let browser: Harness;

beforeAll(async () => {
  site = await startTestSite();
  browser = await browserHarness({ navigationTimeoutMs: 2_000, actionTimeoutMs: 1_000, actionDeadlineMs: 3_000 });
});

afterAll(async () => {
  await browser?.close();
  await site?.close();
});

/**
 * Pids of the Chromium browser processes started with `tag` on their command line (not its helpers). A helper the
 * browser has forked but not yet exec'd still shows the browser's command line (seen under load): a tagged process
 * whose parent is tagged is one of those.
 */
function chromiumPids(tag: string): number[] {
  const out = execFileSync('ps', ['-eo', 'pid=,ppid=,args='], { encoding: 'utf8' });
  const tagged = out
    .split('\n')
    .filter((line) => line.includes(tag) && !line.includes('--type='))
    .map((line) => line.trim().split(/\s+/).slice(0, 2).map(Number) as [number, number]);
  const pids = new Set(tagged.map(([pid]) => pid));
  return tagged.filter(([, parent]) => !pids.has(parent)).map(([pid]) => pid);
}

describe('the browser session', () => {
  it('expands browser_tool_set into one tool per action, with OpenHands names and read-only hints', () => {
    const tools = createToolset([{ name: 'browser_tool_set', params: {} }]);
    const browserTools = tools.filter((tool) => tool.name.startsWith('browser_'));
    expect(browserTools.map((tool) => [tool.name, tool.definition.kind, tool.actionKind, tool.readOnly])).toEqual([
      ['browser_navigate', 'BrowserNavigateTool', 'BrowserNavigateAction', false],
      ['browser_click', 'BrowserClickTool', 'BrowserClickAction', false],
      ['browser_type', 'BrowserTypeTool', 'BrowserTypeAction', false],
      ['browser_get_state', 'BrowserGetStateTool', 'BrowserGetStateAction', true],
      ['browser_get_content', 'BrowserGetContentTool', 'BrowserGetContentAction', true],
      ['browser_scroll', 'BrowserScrollTool', 'BrowserScrollAction', false],
      ['browser_go_back', 'BrowserGoBackTool', 'BrowserGoBackAction', false],
      ['browser_list_tabs', 'BrowserListTabsTool', 'BrowserListTabsAction', true],
      ['browser_switch_tab', 'BrowserSwitchTabTool', 'BrowserSwitchTabAction', false],
      ['browser_close_tab', 'BrowserCloseTabTool', 'BrowserCloseTabAction', false],
      ['browser_get_storage', 'BrowserGetStorageTool', 'BrowserGetStorageAction', false],
      ['browser_set_storage', 'BrowserSetStorageTool', 'BrowserSetStorageAction', false],
      ['browser_start_recording', 'BrowserStartRecordingTool', 'BrowserStartRecordingAction', false],
      ['browser_stop_recording', 'BrowserStopRecordingTool', 'BrowserStopRecordingAction', false],
    ]);
    for (const tool of browserTools) {
      expect(tool.definition).toMatchObject({
        title: tool.name,
        observation_type: 'BrowserObservation',
        annotations: { readOnlyHint: tool.readOnly, openWorldHint: true },
      });
      expect(tool.definition.description.length).toBeGreaterThan(80);
      expect(tool.close).toBeTypeOf('function');
    }
    expect(browserTools.find((t) => t.name === 'browser_navigate')?.parameters).toEqual({
      type: 'object',
      properties: {
        url: { type: 'string', description: 'The URL to open.' },
        new_tab: { type: 'boolean', description: 'Open in a new tab.', default: false },
      },
      required: ['url'],
      additionalProperties: false,
    });
  });

  it('starts Chromium on the first browser action, not before', async () => {
    expect(chromiumPids(browser.tag)).toEqual([]);
    await browser.text('browser_list_tabs');
    expect(chromiumPids(browser.tag)).toHaveLength(1);
  });

  it('round-trips the storage state: cookies and local storage come back after being cleared', async () => {
    await browser.text('browser_navigate', { url: `${site.url}/login` });
    await browser.text('browser_navigate', { url: `${site.url}/storage` });
    expect(await browser.text('browser_get_content')).toContain('stored');
    const read = await browser.text('browser_get_storage');
    expect(read).toMatch(/^Storage state: 1 cookie, local storage of 1 origin\./);
    const state = JSON.parse(read.slice(read.indexOf('\n') + 1));
    expect(state.cookies).toEqual([
      expect.objectContaining({ name: 'session', value: 'abc123', domain: '127.0.0.1', path: '/', httpOnly: true }),
    ]);
    expect(state.origins).toEqual([{ origin: site.url, localStorage: [{ name: 'theme', value: 'dark' }] }]);

    // Cleared, then restored: the server sees the cookie again and the page reads its local storage.
    expect(await browser.text('browser_set_storage', { storage_state: {} })).toMatch(/^Storage restored: 0 cookies/);
    await browser.text('browser_navigate', { url: `${site.url}/whoami` });
    expect(await browser.text('browser_get_content')).toContain('Cookie: none');
    await browser.text('browser_navigate', { url: `${site.url}/local` });
    expect(await browser.text('browser_get_content')).toContain('theme=null');

    const restored = await browser.text('browser_set_storage', { storage_state: state });
    expect(restored).toMatch(/^Storage restored: 1 cookie, local storage of 1 origin/);
    await browser.text('browser_navigate', { url: `${site.url}/whoami` });
    expect(await browser.text('browser_get_content')).toContain('Cookie: session=abc123');
    await browser.text('browser_navigate', { url: `${site.url}/local` });
    expect(await browser.text('browser_get_content')).toContain('theme=dark');

    const bad = await browser.call('browser_set_storage', { storage_state: { cookies: 'x' } });
    expect(bad.is_error).toBe(true);
    expect(textOf(bad)).toBe('storage_state.cookies must be a list of cookies.');
    const badCookie = await browser.call('browser_set_storage', { storage_state: { cookies: [{ name: 'a' }] } });
    expect(badCookie.is_error).toBe(true);
  });

  it('records the session into an HTML player of JPEG frames that follows the current tab', async () => {
    await browser.text('browser_navigate', { url: site.url });
    const started = await browser.text('browser_start_recording');
    expect(started).toMatch(/^Recording started \(recording-.*\.html\)\. Call browser_stop_recording to save it\.$/);
    const again = await browser.call('browser_start_recording');
    expect(again.is_error).toBe(true);
    await browser.text('browser_navigate', { url: `${site.url}/form` });
    await browser.text('browser_navigate', { url: `${site.url}/about`, new_tab: true });
    await browser.text('browser_scroll');
    const stopped = await browser.call('browser_stop_recording');
    const text = textOf(stopped);
    const file = /^Recording saved to (\S+): (\d+) frames? over/.exec(text);
    expect(file, text).not.toBeNull();
    expect(Number(file?.[2])).toBeGreaterThanOrEqual(2);
    expect(stopped.full_output_save_dir).toBe(`${browser.stateDir}/${RECORDINGS_DIR}`);
    expect(await readdir(stopped.full_output_save_dir as string)).toHaveLength(1);

    const html = await readFile(file?.[1] as string, 'utf8');
    const frames = [...html.matchAll(/FRAMES\.push\(\[(\d+),"([A-Za-z0-9+/=]+)"\]\);/g)];
    expect(frames.length).toBe(Number(file?.[2]));
    for (const [, , data] of frames) {
      const jpeg = Buffer.from(data as string, 'base64');
      expect(jpeg.subarray(0, 3).toString('hex')).toBe('ffd8ff');
      expect(jpeg.subarray(-2).toString('hex')).toBe('ffd9');
    }
    const times = frames.map(([, at]) => Number(at));
    expect([...times].sort((a, b) => a - b)).toEqual(times);
    expect(html.trimEnd()).toMatch(/<\/html>$/);

    const none = await browser.call('browser_stop_recording');
    expect(none.is_error).toBe(true);
    expect(textOf(none)).toBe('No recording is running; browser_start_recording starts one.');
  });

  it('closes a browser whose page stopped answering, and starts a new one on the next action', async () => {
    await browser.text('browser_navigate', { url: `${site.url}/hang` });
    const [pid] = chromiumPids(browser.tag);
    // Its script is stuck from the moment it said so (however long a loaded machine took to get there).
    await expect.poll(() => site.paths.includes('/stuck'), { timeout: 30_000 }).toBe(true);
    const started = Date.now();
    const hung = await browser.call('browser_get_state');
    // Its 3 s limit, then Chromium closed: bounded, with room for a loaded machine.
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(hung.is_error).toBe(true);
    expect(textOf(hung)).toMatch(/^The browser did not answer within 3 s \(a page may be stuck in a script\)/);
    // Closed: its processes are gone within moments (a loaded machine reaps them later than the answer).
    await expect.poll(() => chromiumPids(browser.tag), { timeout: 5_000 }).toEqual([]);
    const next = await browser.text('browser_navigate', { url: `${site.url}/about` });
    expect(next.startsWith(`${BROWSER_REPLACED}\n\nNavigated to`)).toBe(true);
    expect(chromiumPids(browser.tag)).not.toContain(pid);
  });

  it('restarts Chromium after a crash, on the next action, and closes it with the tools', async () => {
    await browser.text('browser_navigate', { url: `${site.url}/about` });
    const [pid] = chromiumPids(browser.tag);
    expect(pid).toBeGreaterThan(0);
    await browser.text('browser_start_recording');

    process.kill(pid as number, 'SIGKILL');
    await expect.poll(() => chromiumPids(browser.tag), { timeout: 5_000 }).toEqual([]);
    // Playwright learns of it when the browser's pipe closes, a moment after the process is gone (longer when loaded).
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const after = await browser.call('browser_list_tabs');
    expect(textOf(after)).toBe(`${BROWSER_RESTARTED}\n\nNo tabs are open; browser_navigate opens one.`);
    expect(after.is_error).toBe(false);
    expect(chromiumPids(browser.tag)).toHaveLength(1);
    expect(chromiumPids(browser.tag)[0]).not.toBe(pid);
    // Only the next action hears about it.
    expect(await browser.text('browser_navigate', { url: `${site.url}/about` })).toMatch(/^Navigated to/);
    // The recording the crash cut short is saved and reported.
    const stopped = await browser.call('browser_stop_recording');
    expect(textOf(stopped)).toMatch(/^The recording had ended when the browser stopped\. Recording saved to /);

    await Promise.all(browser.tools.map((tool) => tool.close?.()));
    expect(chromiumPids(browser.tag)).toEqual([]);
    const closed = await browser.call('browser_navigate', { url: site.url });
    expect(closed.is_error).toBe(true);
    expect(textOf(closed)).toBe('The browser is closed (the conversation was closed).');
  });

  it('says clearly when Chromium cannot be started', async () => {
    const missing = await browserHarness({ executablePath: '/nonexistent/chromium' });
    try {
      const result = await missing.call('browser_navigate', { url: site.url });
      expect(result.is_error).toBe(true);
      expect(textOf(result)).toMatch(
        /^Could not start Chromium \(\/nonexistent\/chromium\): .+\. Install it with `apt-get install -y chromium`\.$/,
      );
    } finally {
      await missing.close();
    }
  });
});
