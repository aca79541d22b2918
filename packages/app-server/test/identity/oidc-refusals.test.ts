import { expect, it } from 'vitest';
import { OidcIssuer } from '../../src/identity/oidc/issuer.ts';
import { pendingLoginCookieName } from '../../src/identity/oidc/pending-login.ts';
import { Browser, type Visit } from '../support/browser.ts';
import { type OidcWorld, callbackUrl, describeOidc } from './oidc-world.ts';

/** The name of the cookie of the login under way that the callback `url` finishes. */
const pendingOf = (url: string | URL) => pendingLoginCookieName(new URL(url).searchParams.get('state') as string);
const CALLBACK = '/api/v1/auth/callback';

/** The answer is the refusal `status` saying `detail`, and signs no one in. */
async function refused(world: OidcWorld, browser: Browser, answer: Visit, status: number, detail: RegExp) {
  expect(answer.status, JSON.stringify(answer.body)).toBe(status);
  expect(answer.body.detail).toMatch(detail);
  expect(answer.headers.getSetCookie().some((line) => line.startsWith('bosun_session='))).toBe(false);
  // The login under way ends with its refusal: the browser cannot try the same callback again.
  expect(answer.headers.getSetCookie()).toContainEqual(
    expect.stringMatching(/^bosun_oidc_login_[\w-]{22}=; .*Max-Age=0/),
  );
  expect((await world.visit(browser, '/api/v1/users/me')).status).toBe(401);
}

describeOidc('refused sign-ins through an OpenID Connect issuer', (world) => {
  it('refuses a callback in another browser than the one that started the login (login CSRF)', async () => {
    const url = await callbackUrl(world(), new Browser());
    const victim = new Browser();
    await refused(world(), victim, await victim.visit(url), 400, /No sign-in is under way in this browser/);
  });

  it("refuses a callback whose state is none of the browser's logins under way, or under another's cookie", async () => {
    const browser = new Browser();
    const own = await callbackUrl(world(), browser);
    const foreign = await callbackUrl(world(), new Browser());
    await refused(world(), browser, await browser.visit(foreign), 400, /No sign-in is under way in this browser/);
    // The sealed login of one state under the cookie name of another is not that other login.
    const host = new URL(world().url).host;
    browser.setCookie(host, pendingOf(foreign), browser.cookie(host, pendingOf(own)));
    await refused(world(), browser, await browser.visit(foreign), 400, /No sign-in is under way in this browser/);
  });

  it('refuses a callback replayed with its pending login (the state is used once)', async () => {
    const browser = new Browser();
    const url = await callbackUrl(world(), browser);
    const host = new URL(world().url).host;
    const pending = browser.cookie(host, pendingOf(url));
    expect(pending).toBeDefined();
    expect((await browser.visit(url)).status).toBe(302);
    const replay = new Browser();
    replay.setCookie(host, pendingOf(url), pending);
    await refused(world(), replay, await replay.visit(url), 400, /already finished/);
  });

  it("refuses a used code under a new login's state (the issuer does not take it twice)", async () => {
    const browser = new Browser();
    const first = new URL(await callbackUrl(world(), browser));
    expect((await browser.visit(first)).status).toBe(302);
    const attacker = new Browser();
    const second = new URL(await callbackUrl(world(), attacker));
    second.searchParams.set('code', first.searchParams.get('code') as string);
    await refused(
      world(),
      attacker,
      await attacker.visit(second),
      400,
      /did not take the sign-in's code \(invalid_grant/,
    );
  });

  it('refuses an ID token whose nonce is not the login’s', async () => {
    const browser = new Browser();
    const url = await callbackUrl(world(), browser, (next) => {
      if (next.searchParams.has('nonce')) next.searchParams.set('nonce', 'a-nonce-the-app-never-made');
      return next;
    });
    await refused(world(), browser, await browser.visit(url), 400, /did not validate/);
  });

  it('says what the issuer refused (access_denied: 403, other errors: 400)', async () => {
    const browser = new Browser();
    world().issuer.next = { deny: 'The person said no' };
    const denied = await browser.navigate(`${world().url}/api/v1/auth/login`, {
      follow: (next) => next.origin !== world().url || next.pathname === CALLBACK,
    });
    await refused(world(), browser, denied, 403, /refused the sign-in: access_denied: The person said no/);

    const other = new Browser();
    const url = new URL(await callbackUrl(world(), other));
    url.searchParams.delete('code');
    url.searchParams.set('error', 'temporarily_unavailable');
    await refused(world(), other, await other.visit(url), 400, /refused the sign-in: temporarily_unavailable/);
  });

  it('refuses a callback with no or a forged pending login, and cookie or query junk, as 4xx', async () => {
    const browser = new Browser();
    const host = new URL(world().url).host;
    const url = `${world().url}${CALLBACK}`;
    await refused(world(), browser, await browser.visit(`${url}?code=x&state=y`), 400, /No sign-in is under way/);
    browser.setCookie(host, pendingLoginCookieName('y'), 'v1.abc.def.ghi.jkl');
    await refused(world(), browser, await browser.visit(`${url}?code=x&state=y`), 400, /No sign-in is under way/);
    const junk = await browser.visit(`${url}?state=${'s'.repeat(600)}`);
    expect(junk.status).toBe(422);
  });

  it('links to the user who has the e-mail only when the issuer says it is verified', async () => {
    const { repositories, account, signIn, visit } = world();
    const email = `held-${crypto.randomUUID()}@example.test`;
    const holder = await repositories.users.create({ email, name: 'Holder' });
    const unverified = account({ email, email_verified: false });
    const browser = new Browser();
    await refused(world(), browser, await signIn(browser, unverified), 409, /does not say the address is verified/);
    expect(await repositories.oidcIdentities.userOf({ issuer: world().issuer.url, subject: unverified.sub })).toBe(
      undefined,
    );
    // Another person (a new browser: the issuer's session is the first account's) whose address is verified.
    const verified = account({ email: email.toUpperCase(), email_verified: true });
    const owner = new Browser();
    expect((await signIn(owner, verified)).status).toBe(302);
    expect((await visit(owner, '/api/v1/users/me')).body).toMatchObject({ id: holder.id, email });
  });

  it('gives a new user an e-mail address only when it is verified', async () => {
    const { account, signIn, visit } = world();
    const browser = new Browser();
    const unverified = account({ email_verified: false });
    expect((await signIn(browser, unverified)).status).toBe(302);
    expect((await visit(browser, '/api/v1/users/me')).body.email).toBeNull();
    // Someone who later proves that address at the issuer gets their own account, not this one.
    const owner = new Browser();
    expect((await signIn(owner, world().account({ email: unverified.email }))).status).toBe(302);
    const mine = (await visit(browser, '/api/v1/users/me')).body.id;
    expect((await visit(owner, '/api/v1/users/me')).body).toMatchObject({ email: unverified.email });
    expect((await visit(owner, '/api/v1/users/me')).body.id).not.toBe(mine);
  });

  it('says why an issuer URL that is not the issuer’s own cannot be discovered', async () => {
    const { url } = world().issuer;
    const named = async (issuerUrl: string) =>
      new OidcIssuer({ issuerUrl, clientId: 'bosun' }).configuration().then(
        () => 'discovered',
        (error: Error) => error.message,
      );
    // The same server under another name: its tokens would name another issuer than the one configured.
    expect(await named(url.replace('127.0.0.1', 'localhost'))).toBe(
      `The sign-in issuer cannot be reached (it names itself "${url}": oidc_issuer_url must be exactly that): try again later`,
    );
    expect(await named(`${url}/realms/nowhere`)).toMatch(/\(HTTP 404\)/);
  });

  it('never logs the client secret', async () => {
    expect(world().logs.join('\n')).not.toContain('bosun-test-secret');
  });
});

describeOidc(
  'sign-in callbacks limited per client address',
  (world) => {
    it('answers 429 with Retry-After once the address used its sign-ins', async () => {
      const browser = new Browser();
      const url = `${world().url}${CALLBACK}?code=x&state=y`;
      for (let i = 0; i < 2; i++) expect((await browser.visit(url)).status).toBe(400);
      const limited = await browser.visit(url);
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    });
  },
  { rateLimits: { sign_in: { limit: 2, windowMs: 60_000 } } },
);

describeOidc(
  'a server without an issuer',
  (world) => {
    it('lists no login method, answers 404 at login and callback, and gives the web client no auth_url', async () => {
      const browser = new Browser();
      expect((await world().visit(browser, '/api/v1/auth/providers')).body).toEqual([]);
      for (const path of ['/api/v1/auth/login', `${CALLBACK}?code=x&state=y`]) {
        const answer = await world().visit(browser, path);
        expect(answer.status).toBe(404);
        expect(answer.body.detail).toMatch(/not configured/);
      }
      expect((await world().visit(browser, '/api/v1/web-client/config')).body.auth_url).toBeNull();
      const logout = await world().visit(browser, '/api/v1/auth/logout');
      expect(logout.location).toBe(`${world().url}/`);
    });
  },
  { config: { oidc_issuer_url: undefined } },
);
