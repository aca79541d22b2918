import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { accountMenu, expectAccessible, screenshot, signInWithLink, visible } from './support/browser.ts';
import { useWebSuite } from './support/suite.ts';

/**
 * Signing in with the one-time link `bosun serve` prints (and `bosun sign-in-link` makes), in Chromium against the
 * real app server: a deep link asked for before survives the sign-in; signing out ends it.
 */
const suite = useWebSuite();

describe('signing in with the printed link', { timeout: 120_000 }, () => {
  it('brings a signed-out visitor of a deep link to the sign-in page, and back to it after the printed link', async () => {
    const page = await suite.page();
    const deepLink = `/conversations/${randomUUID()}?tab=changes`;
    await page.goto(deepLink);
    await visible(page.getByRole('heading', { name: 'Sign in', level: 1 }));
    expect(new URL(page.url()).pathname).toBe('/sign-in');
    expect(new URL(page.url()).searchParams.get('return_to')).toBe(deepLink);
    await visible(page.getByText('bosun sign-in-link'));
    await expectAccessible(page, 'the sign-in page');
    await screenshot(page, 'sign-in-page');

    // The printed link lands on `/`; the page asked for comes back.
    const printed = suite.app.printedSignInUrl;
    if (!printed) throw new Error('bosun serve printed no sign-in link');
    await page.goto(printed);
    await page.waitForURL((url) => url.pathname === new URL(deepLink, 'http://x').pathname);
    expect(new URL(page.url()).search).toBe('?tab=changes');
    await visible(accountMenu(page));
    await screenshot(page, 'sign-in-deep-link-after-printed-link');
  });

  it('signs in with a fresh link, shows who is signed in, and signs out from the account menu', async () => {
    const page = await suite.page();
    await signInWithLink(page, await suite.app.signInLink());
    expect(new URL(page.url()).pathname).toBe('/');
    await visible(page.getByRole('navigation', { name: 'Main' }));
    await expectAccessible(page, 'the home page, signed in');
    await screenshot(page, 'sign-in-printed-link');

    await accountMenu(page).click();
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
    await page.waitForURL((url) => url.pathname === '/sign-in');
    await visible(page.getByRole('heading', { name: 'Sign in' }));
    // Signed out for real: the API refuses the browser's cookie now, and a page asked for goes to the sign-in page.
    await page.goto('/settings');
    await page.waitForURL((url) => url.pathname === '/sign-in');
    await screenshot(page, 'sign-out');
  });
});
