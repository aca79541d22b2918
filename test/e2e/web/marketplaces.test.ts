import { beforeAll, describe, expect, it } from 'vitest';
import { closedPort } from '../../../packages/sources/test/support/closed-port.ts';
import { finish } from '../turns.ts';
import { expectAccessible, expectNoSidewaysScroll, screenshot, visible } from './support/browser.ts';
import {
  type Json,
  composer,
  startFromHome,
  storedEvents,
  timeline,
  until,
  untilAgentStatus,
} from './support/conversation.ts';
import {
  marketplaceDialog,
  marketplaceGroup,
  openSkillsSettings,
  pluginRow,
  previewMarketplace,
  useMarketplaceSuite,
} from './support/marketplace-flow.ts';
import { CHECKLIST_SKILL_MARKER, MARKETPLACE_FILES, WELCOME_SKILL_MARKER } from './support/marketplace-host.ts';

/**
 * Settings > Skills & Plugins in the browser against the real stack: a marketplace repository (`github:acme/plugins`
 * on a Git host on loopback, configured as the app's GitHub) previewed, added with Auto-Load, listed with the
 * plugins and skills it brings; one skill turned off; then a conversation started from Home gets the other skill
 * (the scripted model answers after reading the skill's body) and never the one turned off.
 */
const NEW_SKILL_PATH = 'plugins/reviewer/skills/security/SKILL.md';
const WELCOMED = 'Welcome, welcome: the welcome skill says it twice.';
const CHECKLIST_LEAKED = 'The turned-off checklist reached the model.';
const NO_CHECKLIST = 'Reviewed without any checklist.';

const { suite, host } = useMarketplaceSuite({
  // The app's GitLab is a host that does not answer: its repositories cannot be reached.
  env: async () => ({ env: { BOSUN_GIT_GITLAB_URL: `http://127.0.0.1:${await closedPort()}` } }),
  script: {
    turns: [
      // A skill's body reaches the model only when its slash command activated it.
      { when: { last_user_message_contains: CHECKLIST_SKILL_MARKER }, ...finish(CHECKLIST_LEAKED), times: 5 },
      { when: { last_user_message_contains: WELCOME_SKILL_MARKER }, ...finish(WELCOMED), times: 5 },
      { when: { last_user_message_contains: 'review the change' }, ...finish(NO_CHECKLIST), times: 5 },
    ],
  },
});
beforeAll(() => suite.configureLlm());
/** The marketplaces the app composes for the suite's person. */
const listed = async () => (await suite.app.api.get('/api/v1/marketplaces')).items;

/** The skills of the system prompt the agent got: the `<available_skills>` catalog of its SystemPromptEvent. */
function catalogOf(events: Json[]): string {
  const prompt = events.find((event: Json) => event.kind === 'SystemPromptEvent');
  if (!prompt) throw new Error('no SystemPromptEvent stored');
  return /<available_skills>[\s\S]*<\/available_skills>/.exec(JSON.stringify(prompt).replace(/\\n/g, '\n'))?.[0] ?? '';
}

describe('marketplaces in Settings > Skills & Plugins', { timeout: 240_000 }, () => {
  it('previews a marketplace, adds it with Auto-Load and lists it with its plugins and skills', async () => {
    const page = await suite.signedInPage();
    await openSkillsSettings(page);
    await visible(page.getByText('None of your own yet'));
    await expectAccessible(page, 'the Skills & Plugins settings, empty');

    const dialog = await previewMarketplace(page, host().source);
    const preview = dialog.getByRole('region', { name: /^Preview: acme-plugins/ });
    await visible(preview.getByText(`at commit ${host().commit.slice(0, 7)}`));
    const greeter = preview.getByRole('listitem').filter({ has: page.getByText('greeter', { exact: true }) });
    await visible(greeter.getByText('greeter:welcome'));
    await visible(greeter.getByText('/greeter:greet'));
    const reviewer = preview.getByRole('listitem').filter({ has: page.getByText('reviewer', { exact: true }) });
    await visible(reviewer.getByText('reviewer:checklist'));
    await visible(reviewer.getByText('critic'));
    // Only a preview: nothing is registered before Add marketplace.
    expect((await listed()).filter((item) => item.scope === 'personal')).toEqual([]);
    const autoLoad = dialog.getByRole('switch', { name: 'Auto-Load' });
    expect(await autoLoad.isChecked()).toBe(false);
    await autoLoad.check();
    await expectAccessible(page, 'the Add Repository dialog with its preview');
    await preview.scrollIntoViewIfNeeded();
    await screenshot(page, 'marketplaces-preview');

    await dialog.getByRole('button', { name: 'Add marketplace' }).click();
    await marketplaceDialog(page).waitFor({ state: 'detached' });
    const yours = marketplaceGroup(page, 'Yours').getByRole('listitem');
    await visible(yours.getByText('plugins', { exact: true }));
    await visible(yours.getByText('Personal', { exact: true }));
    await visible(yours.getByText('Auto-Load on'));
    await visible(yours.getByText(host().source));
    await visible(yours.getByText('default branch'));
    const registered = (await listed()).find((item) => item.scope === 'personal');
    expect(registered).toMatchObject({ name: 'plugins', source: host().source, auto_load: true, ref: null });

    const short = host().commit.slice(0, 7);
    for (const [plugin, skill] of [
      ['greeter', 'greeter:welcome'],
      ['reviewer', 'reviewer:checklist'],
    ] as const) {
      const row = pluginRow(page, plugin);
      await visible(row.getByRole('switch', { name: `${skill}: skill of ${plugin}` }));
      await visible(row.getByText(host().source));
      await visible(row.getByText(short, { exact: true }));
      await visible(row.getByText('Auto-Load', { exact: true }));
    }
    await visible(pluginRow(page, 'reviewer').getByText('critic'));
    // At 1280 px every column shows (Problems the last), nothing hidden behind a sideways scroll.
    const table = page.getByRole('region', { name: 'Skills and plugins table' });
    const [scrolled, shown] = await table.evaluate((element) => [element.scrollWidth, element.clientWidth]);
    expect(scrolled).toBeLessThanOrEqual(shown as number);
    await expectAccessible(page, 'the Skills & Plugins settings with a marketplace');
    await screenshot(page, 'marketplaces-listed');
  });

  it('turns a skill off with its switch: the settings’ disabled_skills name it', async () => {
    const page = await suite.signedInPage();
    await page.goto('/settings/skills');
    const checklist = await visible(page.getByRole('switch', { name: 'reviewer:checklist: skill of reviewer' }));
    expect(await checklist.isChecked()).toBe(true);
    // The switch follows the saved settings: it turns off once the server took the change.
    await checklist.click();
    await until('reviewer:checklist in disabled_skills', async () =>
      (await suite.app.api.get('/api/v1/settings')).disabled_skills?.includes('reviewer:checklist') ? true : undefined,
    );
    await visible(pluginRow(page, 'reviewer').getByText('off', { exact: true }));
    // Still off once the page is read again, and the other skill still on.
    await page.reload();
    expect(await page.getByRole('switch', { name: 'reviewer:checklist: skill of reviewer' }).isChecked()).toBe(false);
    expect(await page.getByRole('switch', { name: 'greeter:welcome: skill of greeter' }).isChecked()).toBe(true);
    expect((await suite.app.api.get('/api/v1/settings')).disabled_skills).toEqual(['reviewer:checklist']);
    await screenshot(page, 'marketplaces-skill-off');
  });

  it('starts a conversation from Home that gets the skill still on, and not the one turned off', async () => {
    const page = await suite.signedInPage();
    const id = await startFromHome(page, '/greeter:welcome our visitor from Bern');
    await visible(timeline(page).getByText(WELCOMED));
    await untilAgentStatus(page, 'Finished');
    // The page marks the message that activated the skill.
    const asked = timeline(page).getByRole('article', { name: 'You said' }).first();
    await visible(asked.getByText('greeter:welcome', { exact: true }));

    await composer(page).fill('/reviewer:checklist review the change');
    await composer(page).press('Enter');
    await visible(timeline(page).getByText(NO_CHECKLIST));
    await untilAgentStatus(page, 'Finished');
    expect(await timeline(page).getByText(CHECKLIST_LEAKED).count()).toBe(0);
    await expectAccessible(page, 'a conversation with a plugin’s skill');
    await screenshot(page, 'marketplaces-conversation-skill');
    // The agent's instructions, as the page shows them: the skill still on is offered, the one turned off is not.
    const instructions = timeline(page).locator('details', { hasText: 'The agent' });
    await instructions.getByText(/The agent's instructions and its \d+ tools/).click();
    await visible(instructions.getByText('invoke_skill', { exact: true }));
    await visible(instructions.getByText("This conversation's context:"));
    const shownPrompt = (await instructions.locator('pre').allInnerTexts()).join('\n');
    expect(shownPrompt).toContain('<name>greeter:welcome</name>');
    expect(shownPrompt).not.toContain('reviewer:checklist');
    await instructions.getByText('<name>greeter:welcome</name>', { exact: false }).scrollIntoViewIfNeeded();
    await screenshot(page, 'marketplaces-conversation-instructions');

    const events = await storedEvents(suite.app.api, id);
    const catalog = catalogOf(events);
    expect(catalog).toContain('greeter:welcome');
    expect(catalog).not.toContain('reviewer:checklist');
    const said = events.filter((event: Json) => event.kind === 'MessageEvent' && event.source === 'user');
    expect(said).toHaveLength(2);
    expect(said[0].activated_skills).toEqual(['greeter:welcome']);
    expect(said[1].activated_skills).toEqual([]);
    expect(JSON.stringify(said[0])).toContain(WELCOME_SKILL_MARKER);
    expect(JSON.stringify(events)).not.toContain(CHECKLIST_SKILL_MARKER);
    const [conversation] = await suite.app.api.get('/api/v1/app-conversations', { query: { ids: [id] } });
    expect(JSON.stringify(conversation)).toContain(host().commit);
  });

  it('says in the form why a marketplace it cannot reach was not read', async () => {
    const page = await suite.signedInPage();
    await openSkillsSettings(page);
    for (const [source, why] of [
      ['github:acme/missing', /cannot fetch github:acme\/missing: .*not found/],
      ['gitlab:acme/plugins', /cannot fetch gitlab:acme\/plugins: .*(connect|refused)/i],
    ] as const) {
      await page.getByRole('button', { name: 'Add Repository' }).click();
      const dialog = await visible(marketplaceDialog(page));
      const repository = dialog.getByRole('textbox', { name: 'Repository', exact: true });
      await repository.fill(source);
      await dialog.getByRole('button', { name: 'Preview', exact: true }).click();
      const error = await visible(dialog.getByRole('alert').filter({ hasText: why }));
      expect(await repository.getAttribute('aria-invalid')).toBe('true');
      expect(await error.textContent()).not.toMatch(/internal server error|\b500\b/i);
      await expectAccessible(page, `the Add Repository dialog refusing ${source}`);
      await screenshot(page, source.startsWith('github:') ? 'marketplaces-missing-repo' : 'marketplaces-host-down');
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await marketplaceDialog(page).waitFor({ state: 'detached' });
    }
    expect((await listed()).map((item) => item.name)).toEqual(['plugins']);
  });

  // Last: it moves the marketplace's branch, which the tests above read at its first commit.
  it('reviews an update of a marketplace that waits for review: what changed, stay pinned, then approve', async () => {
    const page = await suite.signedInPage();
    await openSkillsSettings(page);
    const yours = marketplaceGroup(page, 'Yours');
    await yours.getByRole('button', { name: 'Edit plugins' }).click();
    const editing = await visible(page.getByRole('dialog'));
    await editing.getByRole('radio', { name: /^Review each update/ }).check();
    await editing.getByRole('button', { name: 'Save changes' }).click();
    await editing.waitFor({ state: 'detached' });
    const pinned = host().commit;
    expect((await listed())[0]).toMatchObject({
      updates: 'review',
      approved_ref: pinned,
    });
    await visible(yours.getByText(pinned.slice(0, 7)));

    // The branch moves on: the reviewer plugin gains a skill.
    const moved = await host().repository.commit(
      { [NEW_SKILL_PATH]: '---\nname: security\ndescription: A security pass.\n---\nLook.\n' },
      'reviewer: a security skill',
    );
    await page.reload();
    await visible(yours.getByText('Update waiting'));
    expect(await pluginRow(page, 'reviewer').textContent()).toContain(`Update waiting: ${moved.slice(0, 7)}`);
    await expectNoSidewaysScroll(page, 'the Skills & Plugins table with an update waiting');
    await yours.getByRole('button', { name: 'Review update of plugins' }).click();
    const review = await visible(page.getByRole('dialog', { name: 'Update of plugins' }));
    expect(await review.textContent()).toContain(`Its default branch now names commit ${moved.slice(0, 7)}`);
    await visible(review.getByText(moved.slice(0, 7)).first());
    const reviewer = review.getByRole('listitem').filter({ has: page.getByText('reviewer', { exact: true }) });
    await visible(reviewer.getByText('Changed'));
    await visible(reviewer.getByText(/security/));
    expect(await review.getByText('greeter', { exact: true }).count()).toBe(0);
    await expectAccessible(page, 'the update review');
    await screenshot(page, 'marketplaces-update-review');

    // Staying changes nothing: new conversations still load the approved commit.
    await review.getByRole('button', { name: `Stay on ${pinned.slice(0, 7)}` }).click();
    await review.waitFor({ state: 'detached' });
    expect((await listed())[0]?.approved_ref).toBe(pinned);

    await yours.getByRole('button', { name: 'Review update of plugins' }).click();
    await page
      .getByRole('dialog', { name: 'Update of plugins' })
      .getByRole('button', { name: `Approve ${moved.slice(0, 7)}` })
      .click();
    await page.getByRole('dialog', { name: 'Update of plugins' }).waitFor({ state: 'detached' });
    expect((await listed())[0]?.approved_ref).toBe(moved);
    await visible(pluginRow(page, 'reviewer').getByText(moved.slice(0, 7)));
    await visible(pluginRow(page, 'reviewer').getByRole('switch', { name: 'reviewer:security: skill of reviewer' }));
    expect(await yours.getByRole('button', { name: 'Review update of plugins' }).count()).toBe(0);
  });
});
