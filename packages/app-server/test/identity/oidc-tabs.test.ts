import { expect, it } from 'vitest';
import { pendingLoginCookieName } from '../../src/identity/oidc/pending-login.ts';
import { Browser } from '../support/browser.ts';
import { callbackUrl, describeOidc } from './oidc-world.ts';

describeOidc('sign-ins started in several tabs of one browser', (world) => {
  /** Whether `browser` still holds the login under way of the callback `url`. */
  const pending = (browser: Browser, url: string) => {
    const state = new URL(url).searchParams.get('state') as string;
    return browser.cookie(new URL(world().url).host, pendingLoginCookieName(state)) !== undefined;
  };

  it('finishes both of two logins started in two tabs, the earlier one last', async () => {
    const browser = new Browser();
    const earlier = await callbackUrl(world(), browser);
    const later = await callbackUrl(world(), browser);
    expect([pending(browser, earlier), pending(browser, later)]).toEqual([true, true]);
    const second = await browser.visit(later);
    expect(second.status, JSON.stringify(second.body)).toBe(302);
    const first = await browser.visit(earlier);
    expect(first.status, JSON.stringify(first.body)).toBe(302);
    expect((await world().visit(browser, '/api/v1/users/me')).status).toBe(200);
    // Each callback ended its own login: nothing is left under way.
    expect([pending(browser, earlier), pending(browser, later)]).toEqual([false, false]);
  });

  it('keeps at most five logins under way per browser: starting a sixth ends the oldest', async () => {
    const browser = new Browser();
    const urls: string[] = [];
    for (let i = 0; i < 6; i++) urls.push(await callbackUrl(world(), browser));
    expect(urls.map((url) => pending(browser, url))).toEqual([false, true, true, true, true, true]);
    const oldest = await browser.visit(urls[0] as string);
    expect(oldest.status).toBe(400);
    expect(oldest.body.detail).toMatch(/No sign-in is under way in this browser/);
    for (const url of urls.slice(1)) expect((await browser.visit(url)).status).toBe(302);
  });

  it('ends a login cookie that no longer opens at the next login, and leaves cookies not its own alone', async () => {
    const browser = new Browser();
    const host = new URL(world().url).host;
    const damaged = pendingLoginCookieName('a-state-long-gone');
    browser.setCookie(host, damaged, 'v1.abc.def.ghi.jkl');
    browser.setCookie(host, 'bosun_oidc_login_not-ours', 'x');
    const login = await browser.visit(`${world().url}/api/v1/auth/login`);
    expect(login.status).toBe(302);
    const set = login.headers.getSetCookie();
    expect(set).toContainEqual(expect.stringMatching(new RegExp(`^${damaged}=; .*Max-Age=0`)));
    expect(set.some((line) => line.startsWith('bosun_oidc_login_not-ours='))).toBe(false);
    expect(browser.cookie(host, damaged)).toBeUndefined();
  });
});
