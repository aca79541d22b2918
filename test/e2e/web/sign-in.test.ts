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
    await visible(page.getByText('You will come back to the page you asked for.'));
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

  // Last in this file: it uses up the sign-in attempts of this address.
  it('says why a link did not sign in: used already, or too many attempts', async () => {
    const page = await suite.page();
    const link = await suite.app.signInLink();
    await signInWithLink(page, link);
    const used = await suite.page();
    await used.goto(link);
    await visible(used.getByText('That sign-in link did not sign you in'));
    expect(new URL(used.url()).pathname).toBe('/sign-in');
    // No page was asked for: none to come back to.
    await visible(used.getByText('bosun sign-in-link'));
    expect(await used.getByText('You will come back to the page you asked for.').count()).toBe(0);
    const guess = `${new URL(link).origin}/api/v1/auth/sign-in?token=guess`;
    for (let attempt = 0; attempt < 12 && new URL(used.url()).searchParams.get('sign_in') !== 'limited'; attempt += 1) {
      await used.goto(guess);
    }
    await visible(used.getByText(/Too many sign-in attempts from this address: try again in \d+ seconds/));
    await expectAccessible(used, 'the sign-in page over the limit');
    await screenshot(used, 'sign-in-limited');
  });
});
