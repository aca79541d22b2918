import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import type { TestIssuer } from '../../../packages/app-server/test/support/oidc-issuer.ts';
import { accountMenu, expectAccessible, screenshot, visible } from './support/browser.ts';
import { startIssuer } from './support/issuer.ts';
import { useWebSuite } from './support/suite.ts';

/**
 * Signing in through an OpenID Connect issuer (a real one: oidc-provider on loopback, standing in for Keycloak), in
 * Chromium against the real app server: the sign-in page shows the issuer's and the identity providers' buttons,
 * and a deep link asked for before the sign-in comes back after it.
 */
let issuer: TestIssuer | undefined;
const suite = useWebSuite({
  async app() {
    const started = await startIssuer({ BOSUN_OIDC_PROVIDERS: 'github' });
    issuer = started.issuer;
    return started.app;
  },
});

afterAll(() => issuer?.close());

describe('signing in with an OpenID issuer', { timeout: 120_000 }, () => {
  it('shows the provider buttons, signs in at the issuer and comes back to the deep link', async () => {
    if (!issuer) throw new Error('the issuer did not start');
    const email = `ada-${randomUUID().slice(0, 8)}@example.test`;
    issuer.signsIn({ sub: randomUUID(), email, email_verified: true, name: 'Ada Lovelace' });

    const page = await suite.page();
    const deepLink = '/settings/secrets?from=bookmark';
    await page.goto(deepLink);
    await page.waitForURL((url) => url.pathname === '/sign-in');
    const issuerButton = await visible(page.getByRole('link', { name: `Continue with ${new URL(issuer.url).host}` }));
    await visible(page.getByRole('link', { name: 'Continue with GitHub' }));
    await expectAccessible(page, 'the sign-in page with an OpenID issuer');
    await screenshot(page, 'sign-in-oidc-page');

    await issuerButton.click();
    await page.waitForURL((url) => url.origin === suite.app.url && url.pathname === '/settings/secrets');
    expect(new URL(page.url()).search).toBe('?from=bookmark');
    await visible(accountMenu(page));
    // Signed in as the issuer's account: the account menu is named after them.
    expect(await accountMenu(page).getAttribute('aria-label')).toMatch(new RegExp(`Ada Lovelace|${email}`));
    const me = await page.request.get('/api/v1/users/me');
    expect(((await me.json()) as { email?: string }).email).toBe(email);
    await screenshot(page, 'sign-in-oidc-deep-link');
  });
});
