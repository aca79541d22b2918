import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { closedPort } from '../../../../packages/agent/test/support/closed-port.ts';
import { TestIssuer } from '../../../../packages/app-server/test/support/oidc-issuer.ts';
import type { WebAppOptions } from './app.ts';
import { accountMenu, visible } from './browser.ts';
import type { WebSuite } from './suite.ts';

/** Someone who signs in through the OpenID issuer. */
export interface Person {
  name: string;
  email: string;
  sub: string;
}

/** A person with a fresh address (each run's app is new, but the names stay readable in the screenshots). */
export function person(name: string): Person {
  const tag = randomUUID().slice(0, 6);
  return { name, email: `${name.split(' ')[0]?.toLowerCase()}-${tag}@example.test`, sub: randomUUID() };
}

/**
 * An OpenID issuer on loopback (oidc-provider) and the app's settings to use it, as in sign-in-oidc.test.ts: the
 * app listens on a port chosen here so that the issuer knows its callback.
 */
export async function startIssuer(): Promise<{ issuer: TestIssuer; app: WebAppOptions }> {
  const port = await closedPort();
  const url = `http://127.0.0.1:${port}`;
  const issuer = await TestIssuer.start({
    redirectUris: [`${url}/api/v1/auth/callback`],
    postLogoutRedirectUris: [`${url}/sign-in`, `${url}/`],
  });
  return {
    issuer,
    app: {
      port,
      env: {
        BOSUN_PUBLIC_URL: url,
        BOSUN_OIDC_ISSUER_URL: issuer.url,
        BOSUN_OIDC_CLIENT_ID: issuer.clientId,
        BOSUN_OIDC_CLIENT_SECRET: issuer.clientSecret,
      },
    },
  };
}

/** A browser context of its own for `who`, signed in at the issuer from the sign-in page. */
export async function signInAs(suite: WebSuite, issuer: TestIssuer, who: Person): Promise<Page> {
  issuer.signsIn({ sub: who.sub, email: who.email, email_verified: true, name: who.name });
  const page = await suite.page();
  await page.goto('/');
  await page.waitForURL((url) => url.pathname === '/sign-in');
  await page.getByRole('link', { name: `Continue with ${new URL(issuer.url).host}` }).click();
  await visible(accountMenu(page));
  const me = (await (await page.request.get('/api/v1/users/me')).json()) as { email?: string };
  if (me.email !== who.email) throw new Error(`signed in as ${me.email}, not ${who.email}`);
  return page;
}

/** The header's organization switcher: chooses `name` ("Personal account" for none). */
export async function actAs(page: Page, name: string): Promise<void> {
  await page.getByRole('button', { name: /switch organization/ }).click();
  await page.getByRole('menuitem', { name: new RegExp(`^(✓ )?${name}$`) }).click();
  const shown = name === 'Personal account' ? 'Personal' : name;
  await visible(page.getByRole('button', { name: `${shown}: switch organization` }));
}
