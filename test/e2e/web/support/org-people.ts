import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import type { TestIssuer } from '../../../../packages/app-server/test/support/oidc-issuer.ts';
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
