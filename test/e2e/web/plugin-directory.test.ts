import { decodeLaunchLink } from '@bosun/protocol';
import { describe, expect, it } from 'vitest';
import { finish } from '../turns.ts';
import { expectAccessible, tabTo, visible } from './support/browser.ts';
import { type Json, storedEvents, timeline, until, untilAgentStatus } from './support/conversation.ts';
import { GREET_COMMAND_MARKER } from './support/marketplace-host.ts';
import { shotFromTop, startButton, trustBox, untilRunningConversation, usePluginSuite } from './support/plugin-flow.ts';

/**
 * The Plugin Directory in the browser, against the real stack: `bosun serve` reading its directory from a Git host
 * on loopback (`github:acme/plugins`), a bubblewrap sandbox that fetches the plugin from there, llm-replay as the
 * model. A person finds a plugin, reads what it holds, reviews where it comes from, confirms trust (by keyboard) and
 * starts a conversation in which the plugin's command reaches the model.
 */

const GREETING = 'Hello from the greeter plugin, Zürich!';
const suite = usePluginSuite({
  // Once per start of the file's two.
  turns: [{ when: { last_user_message_contains: GREET_COMMAND_MARKER }, ...finish(GREETING), times: 2 }],
});

const cardNames = (page: Parameters<typeof timeline>[0]) =>
  page.getByRole('list', { name: 'Plugins' }).getByRole('heading', { level: 2 }).allInnerTexts();

describe('the Plugin Directory in the browser', { timeout: 240_000 }, () => {
  it('lists the plugins as cards, featured first, and filters them by search and tag', async () => {
    const page = await suite.signedInPage();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Plugins' }).click();
    await page.waitForURL((url) => url.pathname === '/plugins');
    await visible(page.getByRole('heading', { name: 'Plugins', level: 1 }));
    await visible(page.getByRole('link', { name: 'reviewer' }));
    expect(await cardNames(page)).toEqual(['greeter', 'reviewer']);
    const greeter = page.getByRole('article', { name: 'greeter' });
    await visible(greeter.getByText('Featured'));
    await visible(greeter.getByText('Greets a city, politely.'));
    await visible(page.getByText(suite.host.commit.slice(0, 7)));
    await expectAccessible(page, 'the Plugin Directory');
    await shotFromTop(page, 'plugin-directory');

    await page.getByRole('searchbox', { name: 'Search plugins' }).fill('change');
    await page.waitForURL((url) => url.searchParams.get('q') === 'change');
    await until('only the reviewer listed', async () =>
      (await cardNames(page)).join() === 'reviewer' ? true : undefined,
    );
    await page.getByRole('searchbox', { name: 'Search plugins' }).fill('nothing like it');
    await visible(page.getByText('No plugin matches “nothing like it”.'));
    await page.getByRole('button', { name: 'Clear the search and filters' }).click();
    await visible(page.getByRole('link', { name: 'reviewer' }));

    const tags = page.getByRole('group', { name: 'Tags' });
    await tags.getByRole('button', { name: /^demo/ }).click();
    await page.waitForURL((url) => url.searchParams.get('tag') === 'demo');
    await until('only the greeter listed', async () =>
      (await cardNames(page)).join() === 'greeter' ? true : undefined,
    );
    expect(await tags.getByRole('button', { name: /^demo/ }).getAttribute('aria-pressed')).toBe('true');
    await shotFromTop(page, 'plugin-directory-tag-demo');
    // A card's own tag filters too; then another tag, then all of them again.
    await page.getByRole('button', { name: 'Filter by tag greeting' }).click();
    await page.waitForURL((url) => url.searchParams.get('tag') === 'greeting');
    expect(await cardNames(page)).toEqual(['greeter']);
    await tags.getByRole('button', { name: /^review/ }).click();
    await until('only the reviewer listed', async () =>
      (await cardNames(page)).join() === 'reviewer' ? true : undefined,
    );
    await tags.getByRole('button', { name: 'All' }).click();
    await until('both listed', async () => ((await cardNames(page)).length === 2 ? true : undefined));
  });

  it('shows what a plugin holds, its parameters and examples, and copies its launch link', async () => {
    const page = await suite.signedInPage();
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.goto('/plugins');
    await page.getByRole('link', { name: 'greeter' }).click();
    await page.waitForURL((url) => url.pathname === '/plugins/greeter');
    await visible(page.getByRole('heading', { name: 'greeter', level: 1 }));
    const holds = page.getByRole('region', { name: 'What it holds' });
    await visible(holds.getByText('greeter:greet'));
    await visible(holds.getByText('greeter:welcome'));
    const parameters = page.getByRole('region', { name: 'Parameters' });
    await visible(parameters.getByText('city'));
    await visible(parameters.getByText('Whom to greet'));
    await visible(parameters.getByText('Zürich'));
    const examples = page.getByRole('region', { name: 'Examples' });
    await visible(examples.getByText('Greet the city'));
    await visible(examples.getByText('/greeter:greet'));
    await visible(page.getByText('plugins/greeter'));
    await expectAccessible(page, 'a plugin’s page');
    await shotFromTop(page, 'plugin-page');

    await page.getByRole('button', { name: 'Copy launch link' }).click();
    await visible(page.getByText('Copied to the clipboard.'));
    const copied = (await page.evaluate('navigator.clipboard.readText()')) as string;
    expect(copied).toBe(await page.getByRole('textbox', { name: 'Launch link' }).inputValue());
    expect(copied.startsWith(`${suite.app.url}/launch?`)).toBe(true);
    expect(decodeLaunchLink(copied)).toEqual({
      plugins: [
        {
          source: 'github:acme/plugins',
          ref: suite.host.commit,
          repo_path: 'plugins/greeter',
          parameters: { city: 'Zürich' },
        },
      ],
      message: '/greeter:greet',
      problems: [],
    });
  });

  it('reviews the source, confirms trust by keyboard alone and starts a conversation the plugin runs in', async () => {
    const page = await suite.signedInPage();
    await page.goto('/plugins/greeter');
    await visible(page.getByRole('heading', { name: 'greeter', level: 1 }));
    // Keyboard only, from the page's start: Tab to Create New Conversation, Enter.
    await tabTo(page, /^button Create New Conversation/);
    await page.keyboard.press('Enter');
    const review = page.getByRole('region', { name: 'Start a conversation with greeter' });
    await visible(review);
    // The step takes the focus: a keyboard user goes on from it.
    await expect
      .poll(() => page.evaluate('document.activeElement?.textContent'))
      .toBe('Start a conversation with greeter');
    await visible(review.getByText('github:acme/plugins', { exact: true }));
    await visible(review.getByText(suite.host.commit, { exact: true }));
    await visible(review.getByText('plugins/greeter', { exact: true }));
    expect(await review.getByRole('textbox', { name: /city/ }).inputValue()).toBe('Zürich');
    expect(await review.getByRole('textbox', { name: 'Starting message' }).inputValue()).toBe('/greeter:greet');
    await visible(trustBox(page));
    expect(await trustBox(page).isChecked()).toBe(false);
    expect(await startButton(page).isDisabled()).toBe(true);
    await visible(review.getByText('Confirm that you trust the plugin’s source first.'));
    await expectAccessible(page, 'the review and trust step');
    await shotFromTop(page, 'plugin-review-trust');

    // Then Tab to the checkbox naming the source, Space, Tab to Start, Enter.
    await tabTo(page, /^input I trust github:acme\/plugins with the agent secrets/);
    await page.keyboard.press('Space');
    expect(await trustBox(page).isChecked()).toBe(true);
    await tabTo(page, /^button Start Conversation/);
    await page.keyboard.press('Enter');

    const id = await untilRunningConversation(page, suite.app.api, 'plugin-start-progress');
    await visible(timeline(page).getByText(GREETING));
    await untilAgentStatus(page, 'Finished');
    await expectAccessible(page, 'the conversation started with a plugin');
    await shotFromTop(page, 'plugin-conversation');

    // The trust is on record for the source at that commit, and the command's body reached the model.
    const trust = await suite.app.api.get('/api/v1/plugin-trust');
    expect(trust.items).toEqual([
      expect.objectContaining({ source: 'github:acme/plugins', commit: suite.host.commit }),
    ]);
    const events = await storedEvents(suite.app.api, id);
    const message = events.find((event: Json) => event.kind === 'MessageEvent' && event.source === 'user');
    expect(message.activated_skills).toEqual(['greeter:greet']);
    expect(JSON.stringify(message)).toContain(GREET_COMMAND_MARKER);
  });

  it('says the source is trusted already at a second start of the same commit', async () => {
    const page = await suite.signedInPage();
    await page.goto('/plugins/greeter');
    await page.getByRole('button', { name: 'Create New Conversation' }).click();
    const review = page.getByRole('region', { name: 'Start a conversation with greeter' });
    await visible(review.getByText('Trusted before'));
    await visible(review.getByText(/You confirmed trust in this source at commit/));
    await visible(review.getByText('You trusted this source at this commit before, so this is ticked for you.'));
    expect(await trustBox(page).isChecked()).toBe(true);
    expect(await startButton(page).isEnabled()).toBe(true);
    await shotFromTop(page, 'plugin-review-trusted-before');

    await startButton(page).click();
    await untilRunningConversation(page, suite.app.api, 'plugin-start-progress-trusted');
    await visible(timeline(page).getByText(GREETING));
    // Still one confirmation: the second start asked nothing new.
    expect((await suite.app.api.get('/api/v1/plugin-trust')).items).toHaveLength(1);
  });
});
