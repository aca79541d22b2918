import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SkillHost, skillHost } from '../../../packages/app-server/test/support/skill-host.ts';
import { expectAccessible, screenshot, visible } from './support/browser.ts';
import { openSkillsSettings } from './support/marketplace-flow.ts';
import { useWebSuite } from './support/suite.ts';

/**
 * The user's skills repository in Settings > Skills & Plugins, in Chromium against the real app server: a GitHub
 * token saved in Settings > Git (a Git host on loopback standing in for GitHub, whose `alice/.agents` only that
 * token reads), then the table lists `alice/.agents` with its skill, at its commit, and the skill can be turned off.
 */
const TOKEN = 'ghp_alice-web-token';
let host: SkillHost;
beforeAll(async () => {
  host = await skillHost({
    logins: { [TOKEN]: 'alice' },
    repositories: {
      'alice/.agents': {
        'skills/alice-notes/SKILL.md': '---\nname: alice-notes\ndescription: Alice takes notes.\n---\nTake notes.\n',
      },
    },
    readers: { 'alice/.agents': [TOKEN] },
  });
});
afterAll(async () => {
  await host?.close();
});
const suite = useWebSuite({
  app: async () => ({ env: { BOSUN_GIT_GITHUB_URL: host.url, BOSUN_GIT_ALLOW_PRIVATE_HOSTS: 'true' } }),
});

describe('skills repositories in Settings > Skills & Plugins', { timeout: 120_000 }, () => {
  it("lists the user's .agents with its skill and commit once a GitHub token is saved, and turns the skill off", async () => {
    const page = await suite.signedInPage();
    await page.goto('/settings/git');
    await page.getByLabel('GitHub token', { exact: true }).fill(TOKEN);
    await page.getByRole('button', { name: 'Save GitHub token' }).click();
    await visible(page.getByText('Saved the GitHub token.'));

    await openSkillsSettings(page);
    const row = page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: /alice\/\.agents/ }) });
    await visible(row);
    await visible(row.getByText('Your skills'));
    await visible(row.getByText('Every conversation'));
    await visible(row.getByText(host.commits['alice/.agents']?.slice(0, 7) ?? 'no commit'));
    const toggle = row.getByRole('switch', { name: 'alice-notes: skill of alice/.agents' });
    await expect(toggle.isChecked()).resolves.toBe(true);
    await expectAccessible(page, 'the Skills & Plugins table with a skills repository');
    await screenshot(page, 'skills-table-skill-repository');

    await toggle.click();
    await visible(row.getByText('off'));
    expect((await page.request.get('/api/v1/settings')).ok()).toBe(true);
    const settings = await (await page.request.get('/api/v1/settings')).json();
    expect(settings.disabled_skills).toContain('alice-notes');
    // The token is the server's: never on the page.
    expect(await page.content()).not.toContain(TOKEN);
  });
});
