import { AppServerClient } from '@bosun/client';
import { expect, it } from 'vitest';
import { pendingLoginCookieName } from '../../src/identity/oidc/pending-login.ts';
import { Browser } from '../support/browser.ts';
import { describeOidc } from './oidc-world.ts';

const SESSION = 'bosun_session';

describeOidc(
  'sign-in through an OpenID Connect issuer',
  (world) => {
    it('redirects to the issuer with PKCE (S256), state, nonce, the scopes and the callback', async () => {
      const { url, issuer } = world();
      const browser = new Browser();
      const login = await browser.visit(`${url}/api/v1/auth/login`);
      expect(login.status).toBe(302);
      expect(login.headers.get('cache-control')).toBe('no-store');
      const to = new URL(login.location as string);
      expect(to.origin).toBe(issuer.url);
      expect(Object.fromEntries(to.searchParams)).toMatchObject({
        client_id: 'bosun',
        response_type: 'code',
        scope: 'openid email profile',
        redirect_uri: `${url}/api/v1/auth/callback`,
        code_challenge_method: 'S256',
      });
      for (const name of ['state', 'nonce', 'code_challenge'])
        expect(to.searchParams.get(name)?.length).toBeGreaterThan(20);
      expect(to.searchParams.has('kc_idp_hint')).toBe(false);
      const pending = pendingLoginCookieName(to.searchParams.get('state') as string);
      const cookie = login.headers.getSetCookie().find((line) => line.startsWith(`${pending}=`)) as string;
      expect(cookie).toMatch(/; Path=\/api\/v1\/auth; HttpOnly; SameSite=Lax; Max-Age=600$/);
      // The cookie is sealed: neither the state nor the verifier reads in it.
      expect(cookie).not.toContain(to.searchParams.get('state') as string);
    });

    it('first login makes the user, a second login signs in the same user, the session works, sign-out ends it', async () => {
      const { url, repositories, signIn, visit, account } = world();
      const ada = account();
      const users = await repositories.users.count();
      const first = new Browser();
      const signedIn = await signIn(first, ada, { query: '?return_to=%2Fconversations%3Fx%3D1' });
      expect(signedIn.status).toBe(302);
      expect(signedIn.location).toBe(`${url}/conversations?x=1`);
      const state = signedIn.url.searchParams.get('state') as string;
      expect(signedIn.url.pathname).toBe('/api/v1/auth/callback');
      expect(first.cookie(new URL(url).host, pendingLoginCookieName(state))).toBeUndefined();
      const session = signedIn.headers.getSetCookie().find((line) => line.startsWith(`${SESSION}=`)) as string;
      expect(session).toMatch(/; Path=\/; HttpOnly; SameSite=Lax; Max-Age=2592000$/);
      const me = await visit(first, '/api/v1/users/me');
      expect(me.status).toBe(200);
      expect(me.body).toMatchObject({ email: ada.email, display_name: 'Ada Lovelace' });
      expect(await repositories.users.count()).toBe(users + 1);
      expect(await repositories.oidcIdentities.accountsOf(me.body.id)).toEqual([
        { issuer: world().issuer.url, subject: ada.sub },
      ]);

      const second = new Browser();
      expect((await signIn(second, ada)).location).toBe(`${url}/`);
      expect((await visit(second, '/api/v1/users/me')).body.id).toBe(me.body.id);
      expect(await repositories.users.count()).toBe(users + 1);

      const out = await visit(first, '/api/v1/auth/sign-out', { method: 'POST' });
      expect(out.status).toBe(200);
      expect(out.body).toEqual({ message: 'Signed out' });
      expect(first.cookie(new URL(url).host, SESSION)).toBeUndefined();
      expect((await visit(first, '/api/v1/users/me')).status).toBe(401);
      expect((await visit(second, '/api/v1/users/me')).status).toBe(200);
    });

    it('sends the identity provider of the button as kc_idp_hint, and refuses one that is not configured', async () => {
      const { url, signIn, account } = world();
      const browser = new Browser();
      const login = await browser.visit(`${url}/api/v1/auth/login?provider=gitlab`);
      expect(new URL(login.location as string).searchParams.get('kc_idp_hint')).toBe('gitlab');
      expect((await signIn(new Browser(), account(), { query: '?provider=github' })).status).toBe(302);
      const unknown = await browser.visit(`${url}/api/v1/auth/login?provider=evil`);
      expect(unknown.status).toBe(422);
      expect(unknown.body.detail[0]).toMatchObject({ loc: ['query', 'provider'], type: 'enum' });
      expect(unknown.body.detail[0].msg).toContain('github, gitlab');
    });

    it('lists the login methods and tells the web client where to sign in', async () => {
      const { url, issuer, visit } = world();
      const browser = new Browser();
      const methods = await visit(browser, '/api/v1/auth/providers');
      expect(methods.status).toBe(200);
      expect(methods.body).toEqual([
        { id: 'oidc', name: new URL(issuer.url).host, login_url: `${url}/api/v1/auth/login` },
        { id: 'github', name: 'GitHub', login_url: `${url}/api/v1/auth/login?provider=github` },
        { id: 'gitlab', name: 'GitLab', login_url: `${url}/api/v1/auth/login?provider=gitlab` },
      ]);
      expect((await visit(browser, '/api/v1/web-client/config')).body.auth_url).toBe(`${url}/api/v1/auth/login`);
      expect(await new AppServerClient({ baseUrl: url }).get('/api/v1/auth/providers')).toEqual(methods.body);
    });

    it('never redirects off the server after sign-in, whatever return_to says', async () => {
      const { url, signIn, account } = world();
      for (const evil of [
        '//evil.example',
        'https://evil.example/',
        '/\\evil.example',
        '/\t/evil.example',
        '/\n/evil.example',
        'evil',
        'javascript:alert(1)',
      ]) {
        const answer = await signIn(new Browser(), account(), { query: `?return_to=${encodeURIComponent(evil)}` });
        expect(answer.status, evil).toBe(302);
        expect(answer.location, evil).toBe(`${url}/`);
      }
    });

    it('logout ends the session here and at the issuer, coming back to return_to', async () => {
      const { url, issuer, signIn, visit, account } = world();
      const browser = new Browser();
      const bystander = new Browser();
      await signIn(browser, account());
      await signIn(bystander, account());
      const logout = await visit(browser, '/api/v1/auth/logout?return_to=%2Fbye');
      expect(logout.status).toBe(302);
      const to = new URL(logout.location as string);
      expect(`${to.origin}${to.pathname}`).toBe(`${issuer.url}/session/end`);
      expect(to.searchParams.get('post_logout_redirect_uri')).toBe(`${url}/bye`);
      expect(to.searchParams.get('client_id')).toBe('bosun');
      expect((await visit(browser, '/api/v1/users/me')).status).toBe(401);
      expect((await visit(bystander, '/api/v1/users/me')).status).toBe(200);
      const offsite = await visit(new Browser(), '/api/v1/auth/logout?return_to=%2F%2Fevil.example');
      expect(new URL(offsite.location as string).searchParams.get('post_logout_redirect_uri')).toBe(`${url}/`);
    });
  },
  { config: { oidc_providers: ['github', 'gitlab'] } },
);

describeOidc(
  'sign-in through an issuer that puts the profile in the ID token (as Keycloak does)',
  (world) => {
    it('reads e-mail and name from the ID token', async () => {
      const { signIn, visit, account } = world();
      const browser = new Browser();
      const ada = account({ name: 'Ada in the token' });
      expect((await signIn(browser, ada)).status).toBe(302);
      expect((await visit(browser, '/api/v1/users/me')).body).toMatchObject({
        email: ada.email,
        display_name: 'Ada in the token',
      });
    });
  },
  { conformIdTokenClaims: false },
);
