import { AgentServerClient } from '@bosun/client';
import type { Script, Turn } from '@bosun/llm-replay';
import { beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { finish, terminal } from '../turns.ts';
import {
  dropSockets,
  expectAccessible,
  expectNoDownwardScroll,
  expectNoSidewaysScroll,
  openSockets,
  screenshot,
  signInWithLink,
  socketsMade,
  tabTo,
  visible,
} from './support/browser.ts';
import {
  type Json,
  composer,
  startFromHome,
  storedEvents,
  timeline,
  until,
  untilAgentStatus,
  untilConversationPage,
} from './support/conversation.ts';
import { useWebSuite } from './support/suite.ts';

/**
 * Conversations in the browser, against the real stack: `bosun serve`, a sandbox under bubblewrap per conversation,
 * llm-replay as the model. Each test is a flow a person goes through; they share one conversation where a person
 * would (a second message, a pause, a dropped connection), so the file starts few sandboxes.
 */

const STEPS = Array.from({ length: 10 }, (_, n) => `step-${String(n + 1).padStart(2, '0')}`);
const STREAMED = Array.from({ length: 30 }, (_, n) => `word${n + 1}`).join(' ');

function script(): Script {
  const turns: Turn[] = [
    { when: { last_user_message_contains: 'first task' }, ...terminal('echo hello from the sandbox') },
    { when: { last_tool_result_contains: 'hello from the sandbox' }, ...finish('The first task is done.') },
    { when: { last_user_message_contains: 'second task' }, ...finish('The second task is done too.') },
    // A run long enough to drop the connection in the middle of it: one command a step, each answer a little late.
    ...STEPS.map(
      (step): Turn => ({
        when: { last_user_message_contains: 'count the steps' },
        ...terminal(`echo ${step}`),
        delay_ms: 300,
      }),
    ),
    { when: { last_user_message_contains: 'count the steps' }, ...finish('Counted every step.') },
    { when: { last_user_message_contains: 'write slowly' }, content: STREAMED, stream_delay_ms: 80 },
    // Confirmation mode: the first action is approved, the second rejected.
    { when: { last_user_message_contains: 'careful task' }, ...terminal('echo approved-action') },
    { when: { last_tool_result_contains: 'approved-action' }, ...terminal('echo rejected-action') },
    { when: { last_user_message_contains: 'keyboard task' }, ...finish('Started from the keyboard.') },
    { when: { last_user_message_contains: 'keyboard follow-up' }, ...finish('Answered from the keyboard.') },
    { when: { last_user_message_contains: 'after resume' }, ...finish('Still here after the pause.') },
  ];
  return { turns };
}

const suite = useWebSuite({ script: script() });
beforeAll(() => suite.configureLlm());

/** The conversation the flows share (started by the first). */
let shared: string | undefined;
const sharedConversation = () => {
  if (!shared) throw new Error('the first flow did not start a conversation');
  return shared;
};

/** A client of the conversation's agent server, through the app (as the page reaches it). */
async function agentServerOf(id: string): Promise<AgentServerClient> {
  const [conversation] = await suite.app.api.get('/api/v1/app-conversations', { query: { ids: [id] } });
  if (!conversation?.conversation_url || !conversation.session_api_key) throw new Error('the sandbox does not run');
  return new AgentServerClient({
    baseUrl: conversation.conversation_url.replace(/\/api\/conversations\/[^/]+\/?$/, ''),
    sessionApiKey: conversation.session_api_key,
  });
}

/** The texts of `kind` events of conversation `id` the app stores, in order. */
async function commandsStored(id: string): Promise<string[]> {
  return (await storedEvents(suite.app.api, id))
    .filter((event: Json) => event.kind === 'ActionEvent' && event.action?.kind === 'TerminalAction')
    .map((event: Json) => event.action.command as string);
}

describe('conversations in the browser', { timeout: 180_000 }, () => {
  it('starts a conversation from the home page and watches it run to finish', async () => {
    const page = await suite.signedInPage();
    await expectAccessible(page, 'the home page');
    // The conversation page scrolls its timeline, never itself: the header's height is what it subtracts.
    await expectNoDownwardScroll(page, 'the home page without conversations');
    await screenshot(page, 'home');
    shared = await startFromHome(page, 'first task: say hello');
    await untilAgentStatus(page, 'Finished');
    await visible(timeline(page).getByText('The first task is done.'));
    await visible(timeline(page).getByText('echo hello from the sandbox'));
    // What the page shows is what the app stored.
    const events = await storedEvents(suite.app.api, shared);
    expect(events.some((event: Json) => event.kind === 'ActionEvent' && event.action?.kind === 'FinishAction')).toBe(
      true,
    );
    await expectAccessible(page, 'a finished conversation');
    await expectNoDownwardScroll(page, 'a finished conversation');
    await screenshot(page, 'conversation-finished');
  });

  it('sends a second message that the agent answers', async () => {
    const id = sharedConversation();
    const page = await suite.signedInPage();
    await page.goto(`/conversations/${id}`);
    await visible(timeline(page).getByText('The first task is done.'));
    await composer(page).fill('second task: once more');
    await composer(page).press('Enter');
    await visible(timeline(page).getByText('second task: once more'));
    await visible(timeline(page).getByText('The second task is done too.'));
    await untilAgentStatus(page, 'Finished');
    expect(await composer(page).inputValue()).toBe('');
    await screenshot(page, 'conversation-second-message');
  });

  it('reconnects after its WebSocket drops in the middle of a run: no gap, no duplicate', async () => {
    const id = sharedConversation();
    // Tall enough for every row of the timeline to be rendered (it is virtualized).
    const page = await suite.signedInPage({ height: 2400, trackSockets: true });
    await page.goto(`/conversations/${id}`);
    await visible(timeline(page).getByText('The second task is done too.'));
    await composer(page).fill('count the steps');
    await composer(page).press('Enter');
    await visible(timeline(page).getByText('echo step-02'));

    // The connection drops mid-run: the steps that run meanwhile are the gap the reconnection must fill.
    expect(await dropSockets(page)).toBeGreaterThan(0);
    await screenshot(page, 'conversation-connection-dropped', { settle: false });
    await until('a new connection after the drop', async () => ((await openSockets(page)) >= 1 ? true : undefined));
    await visible(timeline(page).getByText('Counted every step.'));
    await untilAgentStatus(page, 'Finished');
    await visible(page.getByRole('status', { name: /Live updates: Live/ }));

    const stored = await commandsStored(id);
    expect(stored.filter((command) => command.startsWith('echo step-'))).toEqual(STEPS.map((step) => `echo ${step}`));
    const shown = ((await timeline(page).innerText()).match(/echo step-\d+/g) ?? []).filter(Boolean);
    expect(shown).toEqual(stored.filter((command) => command.startsWith('echo step-')));
    await screenshot(page, 'conversation-reconnected');
  });

  it('opens a new connection when the network comes back (the old one may have died unnoticed)', async () => {
    const page = await suite.signedInPage({ trackSockets: true });
    await page.goto(`/conversations/${sharedConversation()}`);
    await visible(page.getByRole('status', { name: /Live updates: Live/ }));
    const made = await socketsMade(page);
    await page.context().setOffline(true);
    await page.context().setOffline(false);
    await until('a new connection once the network is back', async () =>
      (await socketsMade(page)) > made && (await openSockets(page)) >= 1 ? true : undefined,
    );
    await visible(page.getByRole('status', { name: /Live updates: Live/ }));
  });

  it('shows the answer growing while the model streams it', async () => {
    const id = sharedConversation();
    const page = await suite.signedInPage();
    await page.goto(`/conversations/${id}`);
    await visible(timeline(page).getByText('Counted every step.'));
    await composer(page).fill('write slowly');
    await composer(page).press('Enter');
    // Observed in the page every 50 ms (steady under load, unlike round trips from here): the answer's length each
    // time it changed, until it is whole. Several lengths, each longer than the last, mean it was written as it came.
    const whole = page.waitForFunction(
      (full) => {
        const g = globalThis as unknown as { __lengths?: number[]; document: { body: { textContent: string } } };
        g.__lengths ??= [];
        const shown = g.document.body.textContent.match(/word1 word2(?: word\d+)*/g)?.at(-1) ?? '';
        if (shown.length > (g.__lengths.at(-1) ?? 0)) g.__lengths.push(shown.length);
        return shown.length >= full ? g.__lengths : undefined;
      },
      STREAMED.length,
      { polling: 50, timeout: 60_000 },
    );
    await page
      .getByText(/word1 word2 word3/)
      .first()
      .waitFor();
    await screenshot(page, 'conversation-streaming', { settle: false });
    const lengths = (await (await whole).jsonValue()) as number[];
    expect(lengths.length, `lengths seen: ${lengths.join(', ')}`).toBeGreaterThanOrEqual(3);
    expect(lengths[0]).toBeLessThan(STREAMED.length);
    await untilAgentStatus(page, 'Finished');
    await screenshot(page, 'conversation-streamed');
  });

  it('pauses and resumes the sandbox, and goes on after', async () => {
    const id = sharedConversation();
    const page = await suite.signedInPage();
    await page.goto(`/conversations/${id}`);
    await untilAgentStatus(page, 'Finished');
    await page.getByRole('button', { name: 'Pause', exact: true }).click();
    await visible(page.getByText('Sandbox paused'));
    await visible(page.getByText('The sandbox is paused. Resume it to continue the conversation.'));
    expect(await composer(page).isDisabled()).toBe(true);
    await expectAccessible(page, 'a paused conversation');
    await screenshot(page, 'conversation-paused');

    await page.getByRole('button', { name: 'Resume', exact: true }).first().click();
    await visible(page.getByText('Sandbox running'));
    await until(
      'the message box enabled again',
      async () => ((await composer(page).isEnabled()) ? true : undefined),
      90_000,
    );
    await composer(page).fill('after resume: still there?');
    await composer(page).press('Enter');
    await visible(timeline(page).getByText('Still here after the pause.'));
    await screenshot(page, 'conversation-resumed');
  });

  it('asks before each action in confirmation mode: one approved, one rejected with a reason', async () => {
    const id = sharedConversation();
    const page = await suite.signedInPage();
    await page.goto(`/conversations/${id}`);
    await visible(timeline(page).getByText('Still here after the pause.'));
    // The app does not pass the settings' confirmation_mode to a conversation yet: the policy is set on the
    // conversation's agent server (through the app's proxy), as a client of the API would.
    const agent = await agentServerOf(id);
    const policy = (kind: 'AlwaysConfirm' | 'NeverConfirm') =>
      agent.post('/api/conversations/{conversation_id}/confirmation_policy', {
        params: { conversation_id: id },
        body: { policy: { kind } },
      });
    await policy('AlwaysConfirm');
    onTestFinished(() => policy('NeverConfirm').then(() => undefined));

    await composer(page).fill('careful task: echo twice');
    await composer(page).press('Enter');
    const ask = page.getByRole('region', { name: /The agent asks before it runs this action/ });
    await visible(ask.getByText('echo approved-action'));
    await untilAgentStatus(page, 'Waiting for approval');
    await expectAccessible(page, 'a conversation waiting for approval');
    await screenshot(page, 'confirmation-asked');
    await ask.getByRole('button', { name: 'Approve' }).click();

    await visible(ask.getByText('echo rejected-action'));
    await ask.getByRole('textbox', { name: 'Reason for rejecting (optional)' }).fill('Not this one.');
    await ask.getByRole('button', { name: 'Reject' }).click();
    await ask.waitFor({ state: 'hidden' });
    await untilAgentStatus(page, 'Idle');
    await screenshot(page, 'confirmation-rejected');

    const events = await storedEvents(suite.app.api, id);
    const outputs = JSON.stringify(events.filter((event: Json) => event.kind === 'ObservationEvent'));
    expect(outputs).toContain('approved-action');
    const rejections = events.filter((event: Json) => event.kind === 'UserRejectObservation');
    expect(rejections).toEqual([expect.objectContaining({ rejection_reason: 'Not this one.' })]);
  });

  it('shows the retries of a model it cannot reach within seconds', async () => {
    // A port nothing listens on: every call fails at once, and the agent retries.
    await suite.configureLlm({ llm_base_url: 'http://127.0.0.1:9/v1' });
    try {
      const page = await suite.signedInPage();
      await startFromHome(page, 'unreachable task');
      const started = Date.now();
      await visible(page.getByText(/The model did not answer; retry 1 of \d+/));
      expect(Date.now() - started).toBeLessThan(15_000);
      await screenshot(page, 'model-unreachable-retries');
    } finally {
      await suite.configureLlm();
    }
  });

  it('reads on a phone-sized window and in dark mode', async () => {
    const id = sharedConversation();
    for (const colorScheme of ['light', 'dark'] as const) {
      const page = await suite.signedInPage({ width: 390, height: 844, colorScheme });
      await page.goto(`/conversations/${id}`);
      // The timeline opens at its newest rows (it is virtualized: older ones are not rendered).
      await visible(timeline(page).getByText('careful task: echo twice'));
      await expectAccessible(page, `a conversation (390 px, ${colorScheme})`);
      await expectNoSidewaysScroll(page, 'a conversation at 390 px');
      await expectNoDownwardScroll(page, 'a conversation at 390 px');
      await screenshot(page, `phone-${colorScheme}-conversation`);
    }
  });

  it('works with the keyboard alone: sign in, start a conversation, send a second message, open the settings', async () => {
    const page = await suite.page();
    // The link is opened as a person pastes it; everything after is Tab and Enter (and typing).
    await signInWithLink(page, await suite.app.signInLink());
    await visible(page.getByRole('textbox', { name: 'What should the agent do?' }));
    await tabTo(page, /^textarea What should the agent do\?/);
    await page.keyboard.type('keyboard task');
    await page.keyboard.press('Enter');
    await untilConversationPage(page);
    await visible(timeline(page).getByText('Started from the keyboard.'));
    await untilAgentStatus(page, 'Finished');

    await tabTo(page, /^textarea Message to the agent/);
    await page.keyboard.type('keyboard follow-up');
    await page.keyboard.press('Enter');
    await visible(timeline(page).getByText('Answered from the keyboard.'));
    await screenshot(page, 'keyboard-conversation');

    await tabTo(page, /^a Settings$/, { backwards: true });
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.pathname === '/settings/llm');
    await visible(page.getByRole('heading', { name: 'Language model' }));
    await screenshot(page, 'keyboard-settings');
  });

  it('renames a conversation and deletes another from the list on the home page', async () => {
    const page = await suite.signedInPage();
    const [first] = await suite.app.api.get('/api/v1/app-conversations', { query: { ids: [sharedConversation()] } });
    const title = first?.title?.trim() || 'Untitled conversation';
    await page.goto('/');
    await page.getByRole('button', { name: `Rename ${title}` }).click();
    const rename = page.getByRole('dialog', { name: 'Rename conversation' });
    await rename.getByRole('textbox', { name: 'Title' }).fill('Renamed in the browser');
    await rename.getByRole('button', { name: 'Save' }).click();
    await rename.waitFor({ state: 'detached' });
    await visible(page.getByRole('link', { name: /Renamed in the browser/ }));
    const [renamed] = await suite.app.api.get('/api/v1/app-conversations', { query: { ids: [sharedConversation()] } });
    expect(renamed?.title).toBe('Renamed in the browser');
    await expectAccessible(page, 'the home page with conversations');
    await screenshot(page, 'home-renamed');

    await page.getByRole('button', { name: 'Delete keyboard task' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete this conversation?' });
    await expectAccessible(page, 'the delete confirmation');
    await confirm.getByRole('button', { name: 'Delete' }).click();
    // While a dialog is open the rest of the page is hidden from the accessibility tree: the dialog goes first.
    await confirm.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Delete keyboard task' }).waitFor({ state: 'detached' });
    // Gone from the app too (its sandbox is stopped first, which may take a moment).
    await until('the conversation deleted on the app', async () => {
      const left = await suite.app.api.get('/api/v1/app-conversations/search', { query: { limit: 100 } });
      return left.items.some((conversation) => conversation.title === 'keyboard task') ? undefined : true;
    });
    await screenshot(page, 'home-deleted');
  });
});
