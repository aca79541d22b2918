import { execFileSync } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it, onTestFinished } from 'vitest';
import {
  type ActionEventBody,
  type ObservationEventBody,
  actionsOf,
  observationsOf,
  outline,
  recordedRequests,
  startStack,
  textOf,
  withoutStats,
} from './support.ts';
import { finish } from './turns.ts';

/** A greeter site on 127.0.0.1: a form, and the page it submits to. */
async function startGreeter(): Promise<string> {
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://x');
    response.setHeader('content-type', 'text/html; charset=utf-8');
    if (url.pathname === '/hello') {
      const name = (url.searchParams.get('name') ?? '').replace(/[<>&"]/g, '');
      response.end(`<title>Hello</title><h1>Hello, ${name}!</h1><p>Nice to meet you.</p>`);
      return;
    }
    response.end(
      '<title>Greeter</title><form action="/hello"><input name="name" placeholder="Your name"><button>Greet me</button></form>',
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onTestFinished(() => new Promise((resolve) => server.close(() => resolve(undefined))));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Chromium browser processes this test process started (the agent server runs in it). */
function ourChromiums(): number[] {
  const out = execFileSync('ps', ['-eo', 'pid=,ppid=,args='], { encoding: 'utf8' });
  return out
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .filter(([, ppid, command]) => Number(ppid) === process.pid && /chromium/.test(command ?? ''))
    .map(([pid]) => Number(pid));
}

describe('the browser through the agent server', () => {
  it('a scripted LLM fills in and submits a form, reads the result and records it; eviction closes the browser', async () => {
    const site = await startGreeter();
    const { server, llm } = await startStack({
      turns: [
        { tool_calls: [{ name: 'browser_navigate', arguments: { url: site, security_risk: 'LOW' } }] },
        { when: { last_tool_result_contains: 'Title: Greeter' }, tool_calls: [{ name: 'browser_get_state' }] },
        {
          when: { last_tool_result_contains: '[0]<input name="name" placeholder="Your name">' },
          tool_calls: [{ name: 'browser_start_recording' }],
        },
        { tool_calls: [{ name: 'browser_type', arguments: { index: 0, text: 'Ada' } }] },
        {
          when: { last_tool_result_contains: 'Typed "Ada"' },
          tool_calls: [{ name: 'browser_click', arguments: { index: 1 } }],
        },
        { when: { last_tool_result_contains: 'Title: Hello' }, tool_calls: [{ name: 'browser_get_content' }] },
        { when: { last_tool_result_contains: '# Hello, Ada!' }, tool_calls: [{ name: 'browser_stop_recording' }] },
        { ...finish('The site says: Hello, Ada!'), when: { last_tool_result_contains: 'Recording saved to' } },
      ],
    });
    const created = await server.startConversation(llm, {
      message: 'Greet Ada on the greeter site and record it.',
      tools: [{ name: 'browser_tool_set' }],
    });
    await server.waitForStatus(created.id, 'finished', 60_000);

    const events = await server.allEvents(created.id);
    const browserSteps = outline(withoutStats(events)).filter((label) => label.includes('browser_'));
    expect(browserSteps).toEqual([
      'ActionEvent:browser_navigate',
      'ActionEvent:browser_get_state',
      'ActionEvent:browser_start_recording',
      'ActionEvent:browser_type',
      'ActionEvent:browser_click',
      'ActionEvent:browser_get_content',
      'ActionEvent:browser_stop_recording',
    ]);
    const observations = observationsOf(events);
    expect(observations.map((o) => [o.tool_name, o.observation.kind, o.observation.is_error])).toEqual([
      ['browser_navigate', 'BrowserObservation', false],
      ['browser_get_state', 'BrowserObservation', false],
      ['browser_start_recording', 'BrowserObservation', false],
      ['browser_type', 'BrowserObservation', false],
      ['browser_click', 'BrowserObservation', false],
      ['browser_get_content', 'BrowserObservation', false],
      ['browser_stop_recording', 'BrowserObservation', false],
      ['finish', 'FinishObservation', false],
    ]);
    const click = observations[4] as ObservationEventBody;
    expect(textOf(click.observation.content)).toContain(`The page navigated to ${site}/hello?name=Ada.`);

    // The system prompt lists each browser tool under its OpenHands name; the LLM was offered them all.
    const tools = (events[0] as unknown as { tools: { kind: string; title: string }[] }).tools;
    expect(tools.map((tool) => tool.title)).toEqual([
      'browser_navigate',
      'browser_click',
      'browser_type',
      'browser_get_state',
      'browser_get_content',
      'browser_scroll',
      'browser_go_back',
      'browser_list_tabs',
      'browser_switch_tab',
      'browser_close_tab',
      'browser_get_storage',
      'browser_set_storage',
      'browser_start_recording',
      'browser_stop_recording',
      'finish',
      'think',
    ]);
    const requests = await recordedRequests(llm);
    const offered = (requests[0]?.body as { tools: { function: { name: string } }[] }).tools.map(
      (t) => t.function.name,
    );
    expect(offered).toContain('browser_get_content');
    // The action is the Action's fields only (`security_risk` is the ActionEvent's).
    const navigate = actionsOf(events)[0] as ActionEventBody;
    expect(navigate.action).toEqual({ kind: 'BrowserNavigateAction', url: site, new_tab: false });

    // The recording the agent made is the user's to download.
    const stop = observations[6] as ObservationEventBody;
    const name = /\((recording-[^)]+\.html)\)/.exec(textOf(stop.observation.content))?.[1];
    const list = await server.api<{ items: { name: string }[] }>('GET', `/api/conversations/${created.id}/recordings`);
    expect(list.body.items.map((item) => item.name)).toEqual([name]);
    const download = await fetch(`${server.url}/api/conversations/${created.id}/recordings/${name}`);
    expect(download.status).toBe(200);
    const html = await download.text();
    expect(html.match(/FRAMES\.push/g)?.length).toBeGreaterThanOrEqual(2);

    // One browser for the conversation, closed when the idle conversation is evicted from memory.
    expect(ourChromiums()).toHaveLength(1);
    expect(server.agentServer?.service.evictIdle(Date.now() + 24 * 3600_000)).toBe(1);
    await expect.poll(ourChromiums, { timeout: 5_000 }).toEqual([]);
  });

  it('closes the browser when the conversation is deleted', async () => {
    const site = await startGreeter();
    const { server, llm } = await startStack({
      turns: [{ tool_calls: [{ name: 'browser_navigate', arguments: { url: site } }] }, finish('Opened.')],
    });
    const created = await server.startConversation(llm, {
      message: 'Open it.',
      tools: [{ name: 'browser_tool_set' }],
    });
    await server.waitForStatus(created.id, 'finished', 60_000);
    expect(ourChromiums()).toHaveLength(1);
    expect((await server.api('DELETE', `/api/conversations/${created.id}`)).status).toBe(200);
    expect(ourChromiums()).toEqual([]);
  });
});
