import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import type { TestIssuer } from '../../../packages/app-server/test/support/oidc-issuer.ts';
import { accountMenu, expectAccessible, screenshot, visible } from './support/browser.ts';
import { until } from './support/conversation.ts';
import { startIssuer } from './support/issuer.ts';
import {
  marketplaceDialog,
  marketplaceGroup,
  openSkillsSettings,
  pluginRow,
  previewMarketplace,
  useMarketplaceSuite,
} from './support/marketplace-flow.ts';
import { actAs, person, signInAs } from './support/org-people.ts';

/**
 * Organizations in the browser against the real app server, three people signed in through an OpenID issuer, each
 * in a browser context of their own: the owner creates an organization and adds an admin and a member by e-mail;
 * the admin, acting in the organization, adds a marketplace for every member; the member sees it read-only.
 */
let issuer: TestIssuer | undefined;
const { suite, host } = useMarketplaceSuite({
  async env() {
    const started = await startIssuer();
    issuer = started.issuer;
    return started.app;
  },
});
afterAll(() => issuer?.close());

const ORG = 'Acme Tools Team';
const owner = person('Olivia Owner');
const admin = person('Ada Admin');
const member = person('Max Member');

/** What the page's session reads at `path` of the API (as the person, through their cookie). */
async function asPerson<T>(page: Page, path: string): Promise<T> {
  const response = await page.request.get(path);
  if (!response.ok()) throw new Error(`${path}: ${response.status()} ${await response.text()}`);
  return (await response.json()) as T;
}

describe('organizations and their marketplaces', { timeout: 240_000 }, () => {
  it('an organization admin adds an organization marketplace that a member sees read-only', async () => {
    if (!issuer) throw new Error('the issuer did not start');
    // One signs in before someone adds them: an organization adds people Bosun knows.
    const adminPage = await signInAs(suite, issuer, admin);
    const memberPage = await signInAs(suite, issuer, member);
    const ownerPage = await signInAs(suite, issuer, owner);

    // The owner creates the organization and adds the admin and the member by e-mail.
    await accountMenu(ownerPage).click();
    await ownerPage.getByRole('menuitem', { name: 'Organizations' }).click();
    await visible(ownerPage.getByText('You belong to no organization yet.'));
    await expectAccessible(ownerPage, 'the organizations page, none yet');
    await ownerPage.getByRole('textbox', { name: 'Name' }).fill(ORG);
    await ownerPage.getByRole('button', { name: 'Create organization' }).click();
    await visible(ownerPage.getByRole('heading', { name: ORG, level: 1 }));
    const orgId = /\/organizations\/([^/?#]+)/.exec(ownerPage.url())?.[1] ?? '';
    expect(orgId).not.toBe('');
    for (const [who, role] of [
      [admin, 'Admin'],
      [member, 'Member'],
    ] as const) {
      await ownerPage.getByRole('textbox', { name: 'E-mail or user id' }).fill(who.email);
      await ownerPage.getByRole('combobox', { name: 'Their role' }).selectOption({ label: role });
      await ownerPage.getByRole('button', { name: 'Add member' }).click();
      await visible(ownerPage.getByText(`${who.name} is a member now.`));
      const row = ownerPage.getByRole('listitem').filter({ hasText: who.email });
      expect(await row.getByRole('combobox', { name: `Role of ${who.name}` }).inputValue()).toBe(role.toLowerCase());
    }
    const members = await asPerson<{ items: { email: string; role: string }[] }>(
      ownerPage,
      `/api/v1/organizations/${orgId}/members`,
    );
    expect(Object.fromEntries(members.items.map((item) => [item.email, item.role]))).toEqual({
      [owner.email]: 'owner',
      [admin.email]: 'admin',
      [member.email]: 'member',
    });
    await expectAccessible(ownerPage, 'an organization page with its members');
    await screenshot(ownerPage, 'organizations-members');

    // The admin acts in the organization and adds a marketplace for all its members.
    await adminPage.reload();
    await actAs(adminPage, ORG);
    await openSkillsSettings(adminPage);
    const adminGroup = marketplaceGroup(adminPage, `${ORG}’s`);
    await visible(adminGroup.getByText('Every member’s conversations in this organization get them.'));
    const dialog = await previewMarketplace(adminPage, host().source);
    const scope = dialog.getByRole('group', { name: 'Scope' });
    expect(await scope.getByRole('radio').count()).toBe(2);
    await visible(scope.getByRole('radio', { name: 'Personal: your conversations only' }));
    await scope.getByRole('radio', { name: `Organization: every member of ${ORG}` }).check();
    await dialog.getByRole('switch', { name: 'Auto-Load' }).check();
    await expectAccessible(adminPage, 'the Add Repository dialog of an organization admin');
    await screenshot(adminPage, 'organizations-admin-adds');
    await dialog.getByRole('button', { name: 'Add marketplace' }).click();
    await marketplaceDialog(adminPage).waitFor({ state: 'detached' });
    const adminEntry = adminGroup.getByRole('listitem').filter({ hasText: host().source });
    await visible(adminEntry.getByText('Organization', { exact: true }));
    await visible(adminEntry.getByText('Auto-Load on'));
    await visible(adminEntry.getByRole('button', { name: 'Edit plugins' }));
    await visible(adminEntry.getByRole('button', { name: 'Delete plugins' }));
    const listed = await asPerson<{ items: { scope: string; name: string; org_id: string | null }[] }>(
      adminPage,
      `/api/v1/marketplaces?org_id=${orgId}`,
    );
    expect(listed.items.filter((item) => item.scope === 'organization')).toEqual([
      expect.objectContaining({ name: 'plugins', org_id: orgId }),
    ]);
    await expectAccessible(adminPage, 'the Skills & Plugins settings of an organization admin');
    await screenshot(adminPage, 'organizations-admin-listed');

    // The member, acting in the organization, sees it and its plugins but cannot change it.
    await memberPage.reload();
    await actAs(memberPage, ORG);
    await openSkillsSettings(memberPage);
    const memberGroup = marketplaceGroup(memberPage, `${ORG}’s`);
    await visible(memberGroup.getByText(/Read-only: only the organization’s owners and admins change them/));
    const memberEntry = memberGroup.getByRole('listitem').filter({ hasText: host().source });
    await visible(memberEntry.getByText('Auto-Load on'));
    expect(await memberEntry.getByRole('button').count()).toBe(0);
    await visible(pluginRow(memberPage, 'greeter').getByText('(Organization)'));
    await expectAccessible(memberPage, 'the Skills & Plugins settings of an organization member');
    await screenshot(memberPage, 'organizations-member-read-only');
    // Adding one, the member is offered no organization scope: only their own.
    await memberPage.getByRole('button', { name: 'Add Repository' }).click();
    await visible(marketplaceDialog(memberPage).getByRole('textbox', { name: 'Repository', exact: true }));
    expect(await marketplaceDialog(memberPage).getByRole('group', { name: 'Scope' }).count()).toBe(0);
    await marketplaceDialog(memberPage).getByRole('button', { name: 'Cancel' }).click();
    await marketplaceDialog(memberPage).waitFor({ state: 'detached' });
    // The server refuses the member's change too.
    const refused = await memberPage.request.delete(`/api/v1/marketplaces/organization/plugins?org_id=${orgId}`);
    expect(refused.status()).toBe(403);

    // The organization's page says the same: its marketplace listed, nothing to manage.
    await accountMenu(memberPage).click();
    await memberPage.getByRole('menuitem', { name: 'Organizations' }).click();
    await memberPage.getByRole('link', { name: ORG }).click();
    await visible(memberPage.getByText('You: Member'));
    const orgMarketplaces = memberPage.getByRole('region', { name: 'Marketplaces' });
    await visible(orgMarketplaces.getByText(host().source));
    await visible(memberPage.getByText('Only the organization’s owners and admins add members and change roles.'));
    expect(await memberPage.getByRole('form', { name: 'Add a member' }).count()).toBe(0);
    expect(await memberPage.getByRole('button', { name: /^Remove / }).count()).toBe(0);
    await expectAccessible(memberPage, 'an organization page seen by a member');
    await screenshot(memberPage, 'organizations-member-org-page');
    await orgMarketplaces.getByRole('button', { name: 'See its skills and plugins' }).click();
    await memberPage.waitForURL((url) => url.pathname === '/settings/skills');

    // Acting as their personal account, the member no longer gets the organization's marketplace.
    await actAs(memberPage, 'Personal account');
    await visible(memberPage.getByText('Acting as your personal account'));
    await memberGroup.waitFor({ state: 'detached' });
    await until('the organization marketplace gone from the personal view', async () =>
      (await pluginRow(memberPage, 'greeter').count()) === 0 ? true : undefined,
    );
    await screenshot(memberPage, 'organizations-member-personal');
  });
});
