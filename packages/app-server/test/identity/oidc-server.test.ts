import { chmod } from 'node:fs/promises';
import { expect, it } from 'vitest';
import { closedPort } from '../../../sources/test/support/closed-port.ts';
import { appServerConfig, startAppServer } from '../../src/index.ts';
import { Browser } from '../support/browser.ts';
import { describeEachDatabase } from '../support/databases.ts';
import { TestIssuer } from '../support/oidc-issuer.ts';
import { inSignIn } from './oidc-world.ts';

const SECRET = 'bosun-test-secret';

/** The whole server as `bosun serve` starts it, its issuer configured but down at start, then up. */
describeEachDatabase('a server whose OpenID Connect issuer is down at start', (each) => {
  it('starts and serves, answers 503 at login until the issuer answers, then signs people in', async () => {
    const target = await each.target();
    await chmod(target.dataDir, 0o711);
    const issuerUrl = `http://127.0.0.1:${await closedPort()}`;
    const logs: string[] = [];
    const running = await startAppServer(
      appServerConfig({
        host: '127.0.0.1',
        port: 0,
        log_level: 'warn',
        data_dir: target.dataDir,
        ...(target.url ? { database_url: target.url } : {}),
        sandbox_isolation: 'unsafe-none',
        oidc_issuer_url: issuerUrl,
        oidc_client_id: 'bosun',
        oidc_client_secret: SECRET,
        oidc_providers: ['github'],
      }),
      { logStream: { write: (line: string) => logs.push(line) } },
    );
    let issuer: TestIssuer | undefined;
    try {
      const { url } = running;
      const browser = new Browser();
      const get = (path: string, init?: RequestInit) => browser.visit(`${url}${path}`, init);
      expect((await get('/ready')).status).toBe(200);
      expect((await get('/api/v1/auth/providers')).body.map((method: { id: string }) => method.id)).toEqual([
        'oidc',
        'github',
      ]);
      expect((await get('/api/v1/web-client/config')).body.auth_url).toBe(`${url}/api/v1/auth/login`);
      const down = await get('/api/v1/auth/login');
      expect(down.status).toBe(503);
      expect(down.body.detail).toMatch(/^The sign-in issuer cannot be reached \(ECONNREFUSED\)/);
      expect(logs.some((line) => line.includes('OpenID Connect issuer discovery failed'))).toBe(true);

      issuer = await TestIssuer.start({
        port: Number(new URL(issuerUrl).port),
        clientSecret: SECRET,
        redirectUris: [`${url}/api/v1/auth/callback`],
      });
      const ada = { sub: 'ada', email: 'ada@example.test', email_verified: true, name: 'Ada' };
      issuer.signsIn(ada);
      const signedIn = await browser.navigate(`${url}/api/v1/auth/login?return_to=%2Fsettings`, {
        follow: inSignIn(url),
      });
      expect(signedIn.location).toBe(`${url}/settings`);
      const me = await get('/api/v1/users/me');
      expect(me.body).toMatchObject({ email: ada.email, display_name: 'Ada' });
      const created = await get('/api/v1/secrets', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'ADA_TOKEN', value: 'only-for-ada' }),
      });
      expect(created.status).toBe(201);

      // Another person signed in by the issuer sees only their own data.
      const other = new Browser();
      issuer.signsIn({ sub: 'grace', email: 'grace@example.test', email_verified: true });
      await other.navigate(`${url}/api/v1/auth/login`, { follow: inSignIn(url) });
      const theirs = await other.visit(`${url}/api/v1/users/me`);
      expect(theirs.body.email).toBe('grace@example.test');
      expect((await other.visit(`${url}/api/v1/secrets/search`)).body.items).toEqual([]);
      const taken = await other.visit(`${url}/api/v1/secrets/${created.body.id}`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ value: 'stolen' }),
      });
      expect(taken.status).toBe(404);
      expect((await get('/api/v1/secrets/search')).body.items.map((item: { name: string }) => item.name)).toEqual([
        'ADA_TOKEN',
      ]);
      expect(logs.join('\n')).not.toContain(SECRET);
    } finally {
      await running.close();
      await issuer?.close();
    }
  });
});
