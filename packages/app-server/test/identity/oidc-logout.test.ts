import { expect, it } from 'vitest';
import { Browser } from '../support/browser.ts';
import { describeOidc } from './oidc-world.ts';

const ID_TOKEN = 'bosun_oidc_id_token';

/** The claims of a JWT, read without checking it (the issuer checks it below). */
const claimsOf = (jwt: string) => JSON.parse(Buffer.from(jwt.split('.')[1] as string, 'base64url').toString('utf8'));

describeOidc('logout with the ID token of the sign-in as id_token_hint', (world) => {
  it('sends the sign-in’s ID token as id_token_hint, which the issuer takes; it is sealed and never logged', async () => {
    const { url, issuer, signIn, visit, account, logs } = world();
    const ada = account();
    const browser = new Browser();
    const signedIn = await signIn(browser, ada);
    const kept = signedIn.headers.getSetCookie().find((line) => line.startsWith(`${ID_TOKEN}=`)) as string;
    expect(kept).toMatch(/^bosun_oidc_id_token=v1\.[^;]+; Path=\/api\/v1\/auth\/logout; HttpOnly; SameSite=Lax; /);
    const logout = await visit(browser, '/api/v1/auth/logout?return_to=%2Fbye');
    const to = new URL(logout.location as string);
    expect(`${to.origin}${to.pathname}`).toBe(`${issuer.url}/session/end`);
    expect(to.searchParams.get('post_logout_redirect_uri')).toBe(`${url}/bye`);
    const hint = to.searchParams.get('id_token_hint') as string;
    expect(claimsOf(hint)).toMatchObject({ iss: issuer.url, aud: 'bosun', sub: ada.sub });
    // The cookie is sealed (the token does not read in it) and forgotten at logout.
    expect(kept).not.toContain(hint.split('.')[1]);
    expect(logout.headers.getSetCookie()).toContainEqual(expect.stringMatching(/^bosun_oidc_id_token=; .*Max-Age=0/));
    expect(browser.cookie(new URL(url).host, ID_TOKEN)).toBeUndefined();
    // The issuer validates the hint (signature, its client): it asks to confirm the logout; a forged one is refused.
    expect((await browser.visit(to)).status).toBe(200);
    const forged = new URL(to);
    forged.searchParams.set('id_token_hint', `${hint.slice(0, -4)}AAAA`);
    expect((await browser.visit(forged)).status).toBe(400);
    expect(logs.join('\n')).not.toContain(hint.split('.')[2]);
    expect(JSON.stringify(logout.body)).not.toContain(hint.split('.')[2]);
  });

  it('sends no hint without the session the ID token came with', async () => {
    const { url, signIn, visit, account } = world();
    const host = new URL(url).host;
    const ada = new Browser();
    const grace = new Browser();
    await signIn(ada, account());
    await signIn(grace, account());
    // Ada's kept ID token beside Grace's session: it does not open for that session.
    grace.setCookie(host, ID_TOKEN, ada.cookie(host, ID_TOKEN));
    const theirs = await visit(grace, '/api/v1/auth/logout');
    expect(new URL(theirs.location as string).searchParams.has('id_token_hint')).toBe(false);
    expect((await visit(grace, '/api/v1/users/me')).status).toBe(401);
    // Signed out already (no session cookie): no hint either.
    await visit(ada, '/api/v1/auth/sign-out', { method: 'POST' });
    const after = await visit(ada, '/api/v1/auth/logout');
    expect(new URL(after.location as string).searchParams.has('id_token_hint')).toBe(false);
  });
});
