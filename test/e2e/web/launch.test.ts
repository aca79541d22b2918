import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { finish } from '../turns.ts';
import { accountMenu, expectAccessible, tabTo, visible } from './support/browser.ts';
import { type Json, storedEvents, timeline, untilAgentStatus } from './support/conversation.ts';
import { GREET_COMMAND_MARKER } from './support/marketplace-host.ts';
import { shotFromTop, startButton, trustBox, untilRunningConversation, usePluginSuite } from './support/plugin-flow.ts';

/**
 * Launch links in the browser, against the real stack (`bosun serve`, its Plugin Directory on a Git host on
 * loopback, a bubblewrap sandbox, llm-replay): a link with two plugins and a UTF-8 parameter is reviewed, edited,
 * trusted and started, the value reaching the agent intact; broken links are explained where the problem is; a
 * signed-out visitor goes through sign-in and comes back to the same launch.
 */

// One-, two- and three-byte UTF-8 (ü, Greek, Cyrillic, the dash): scripts this machine's fonts draw, so the
// screenshots show the value too (the machine has no CJK font: 東京 would show as boxes).
const CITY = 'Zürich – Αθήνα – Москва';
const ANSWER = `Grüezi ${CITY}, reviewed deeply.`;
const suite = usePluginSuite({
  turns: [
    {
      when: { last_user_message_contains: `city: ${CITY}` },
      ...finish(ANSWER),
    },
  ],
});

/** The launch link of greeter (its city a UTF-8 value) and reviewer at the marketplace's commit, built by the API. */
let link = '';
beforeAll(async () => {
  const { host } = suite;
  const built = await suite.app.api.post('/api/v1/launch/link', {
    body: {
      plugins: [
        { source: host.source, ref: host.commit, repo_path: 'plugins/greeter', parameters: { city: CITY } },
        { source: host.source, ref: host.commit, repo_path: 'plugins/reviewer' },
      ],
      message: 'Greet them, please.',
    },
  });
  link = built.url;
});

/** `/launch?plugins=<base64 of the JSON of items>` with an optional extra query. */
const launchOf = (items: unknown, extra = '') =>
  `/launch?plugins=${encodeURIComponent(Buffer.from(JSON.stringify(items)).toString('base64'))}${extra}`;

/** The review's article of the plugin named `name`. */
const reviewed = (page: Page, name: string | RegExp) => page.getByRole('article', { name });

/** What the launch page must show for the link above: both plugins, where they come from, the values, the message. */
async function expectTheLaunch(page: Page): Promise<void> {
  await visible(page.getByRole('heading', { name: 'Launch 2 plugins', level: 1 }));
  for (const [name, path] of [
    ['greeter', 'plugins/greeter'],
    ['reviewer', 'plugins/reviewer'],
  ] as const) {
    const item = reviewed(page, name);
    await visible(item.getByText(suite.host.source, { exact: true }));
    await visible(item.getByText(suite.host.commit, { exact: true }));
    await visible(item.getByText(path, { exact: true }));
  }
  // The link's value, and the declared default of a parameter the link leaves out.
  expect(await reviewed(page, 'greeter').getByRole('textbox', { name: /city/ }).inputValue()).toBe(CITY);
  expect(await reviewed(page, 'reviewer').getByRole('textbox', { name: /depth/ }).inputValue()).toBe('shallow');
  expect(await page.getByRole('textbox', { name: 'Starting message' }).inputValue()).toBe('Greet them, please.');
}

describe('launch links in the browser', { timeout: 240_000 }, () => {
  it('explains a broken launch link next to what it concerns, never a blank page', async () => {
    const page = await suite.signedInPage();

    await page.goto('/launch?plugins=%%%not-base64%%%');
    await visible(page.getByText('This launch link cannot be read.'));
    await visible(page.getByText(/^plugins: /));
    await visible(page.getByRole('heading', { name: 'What a launch link looks like' }));
    await expectAccessible(page, 'a launch link that cannot be read');
    await shotFromTop(page, 'launch-broken-base64');

    await page.goto(launchOf({ source: suite.host.source }));
    await visible(page.getByText('This launch link cannot be read.'));
    await visible(page.getByText(/expected a JSON array of plugin references, got an object/));

    await page.goto('/launch?message=hello');
    await visible(page.getByText('The address has no plugins parameter: it is not a whole launch link.'));

    // One good plugin and one without a source: the problem is said on that plugin, and nothing can start.
    await page.goto(
      launchOf([
        { source: suite.host.source, ref: suite.host.commit, repo_path: 'plugins/greeter' },
        { repo_path: 'plugins/reviewer', parameters: { depth: 'deep' } },
      ]),
    );
    await visible(page.getByText('1 of 2 plugins in this link cannot be loaded.'));
    const broken = reviewed(page, /^Plugin 2/);
    await visible(broken.getByText('Cannot be loaded'));
    await visible(broken.getByText('This plugin cannot be loaded:'));
    await visible(broken.getByText(/source/));
    await visible(reviewed(page, 'greeter').getByText('plugins/greeter', { exact: true }));
    expect(await startButton(page).isDisabled()).toBe(true);
    await visible(page.getByText(/This link has plugins that cannot be loaded/));
    await expectAccessible(page, 'a launch link with a plugin that cannot be loaded');
    await shotFromTop(page, 'launch-broken-plugin');
  });

  it('brings a signed-out visitor of a launch link through sign-in back to the same launch', async () => {
    const page = await suite.page();
    const path = link.slice(suite.app.url.length);
    await page.goto(path);
    await visible(page.getByRole('heading', { name: 'Sign in', level: 1 }));
    expect(new URL(page.url()).searchParams.get('return_to')).toBe(path);

    await page.goto(await suite.app.signInLink());
    await page.waitForURL((url) => url.pathname === '/launch');
    expect(`${new URL(page.url()).pathname}${new URL(page.url()).search}`).toBe(path);
    await visible(accountMenu(page));
    await expectTheLaunch(page);
    // Nothing was started on the way.
    expect(await trustBox(page).isChecked()).toBe(false);
    expect(await startButton(page).isDisabled()).toBe(true);
    expect((await suite.app.api.get('/api/v1/app-conversations/search', { query: { limit: 10 } })).items).toEqual([]);
  });

  it('reviews two plugins with a UTF-8 parameter, edits them, confirms trust and starts; the value arrives intact', async () => {
    const page = await suite.signedInPage();
    await page.goto(link);
    await expectTheLaunch(page);
    const trust = trustBox(page);
    await visible(trust);
    expect(await trust.isChecked()).toBe(false);
    expect(await startButton(page).isDisabled()).toBe(true);
    await expectAccessible(page, 'the launch page');
    await shotFromTop(page, 'launch');

    await reviewed(page, 'reviewer').getByRole('textbox', { name: /depth/ }).fill('deep');
    const message = page.getByRole('textbox', { name: 'Starting message' });
    // The link's message edited into the plugin's command: the command's activation below says the edit arrived.
    await message.fill('/greeter:greet');
    // The trust by keyboard: the checkbox names the one source both plugins come from.
    await message.focus();
    await tabTo(page, /^input I trust github:acme\/plugins with the agent secrets/);
    await page.keyboard.press('Space');
    expect(await trust.isChecked()).toBe(true);
    expect(await startButton(page).isEnabled()).toBe(true);
    await startButton(page).click();

    const id = await untilRunningConversation(page, suite.app.api, 'launch-start-progress');
    await visible(timeline(page).getByText(`city: ${CITY}`));
    await visible(timeline(page).getByText(ANSWER));
    await untilAgentStatus(page, 'Finished');
    await shotFromTop(page, 'launch-conversation');

    // What the agent was given: the edited values, the UTF-8 one byte for byte, the command's body, both plugins.
    const events = await storedEvents(suite.app.api, id);
    const first = events.find((event: Json) => event.kind === 'MessageEvent' && event.source === 'user');
    const text = JSON.stringify(first);
    expect(text).toContain(`city: ${CITY}`);
    expect(text).toContain('depth: deep');
    expect(text).toContain(GREET_COMMAND_MARKER);
    expect(first.activated_skills).toEqual(['greeter:greet']);
    expect(JSON.stringify(events)).toContain('reviewer:checklist');
  });
});
