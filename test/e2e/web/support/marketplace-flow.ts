import type { Script } from '@bosun/llm-replay';
import type { Locator, Page } from 'playwright-core';
import { afterAll } from 'vitest';
import type { WebAppOptions } from './app.ts';
import { visible } from './browser.ts';
import { type MarketplaceHost, startMarketplaceHost } from './marketplace-host.ts';
import { type WebSuite, useWebSuite } from './suite.ts';

/** A web suite whose app server fetches `github:` sources from a marketplace host on loopback. */
export interface MarketplaceSuite {
  suite: WebSuite;
  /** The host (read inside tests only). */
  host(): MarketplaceHost;
}

/**
 * `useWebSuite` with the marketplace host started first and given to the app as its GitHub
 * (`BOSUN_GIT_GITHUB_URL`, loopback allowed by `BOSUN_GIT_ALLOW_PRIVATE_HOSTS`), as an operator with a company Git
 * host configures it; `env` adds the file's own settings (an OpenID issuer, say).
 */
export function useMarketplaceSuite(
  options: { script?: Script; env?: () => Promise<WebAppOptions> } = {},
): MarketplaceSuite {
  let host: MarketplaceHost | undefined;
  const suite = useWebSuite({
    ...(options.script ? { script: options.script } : {}),
    async app() {
      host = await startMarketplaceHost();
      const extra = (await options.env?.()) ?? {};
      return {
        ...extra,
        env: { ...extra.env, BOSUN_GIT_GITHUB_URL: host.url, BOSUN_GIT_ALLOW_PRIVATE_HOSTS: 'true' },
      };
    },
  });
  afterAll(() => host?.close());
  return {
    suite,
    host() {
      if (!host) throw new Error('the marketplace host did not start');
      return host;
    },
  };
}

/** Settings > Skills & Plugins, reached as a person does: the header's Settings, then the tab. */
export async function openSkillsSettings(page: Page): Promise<void> {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click();
  await page
    .getByRole('navigation', { name: 'Settings sections' })
    .getByRole('link', { name: 'Skills & Plugins' })
    .click();
  await page.waitForURL((url) => url.pathname === '/settings/skills');
  await visible(page.getByRole('heading', { name: 'Marketplaces', level: 2 }));
}

/** The Add Repository dialog. */
export const marketplaceDialog = (page: Page) => page.getByRole('dialog', { name: 'Add a marketplace repository' });

/** Add Repository, the source typed, Preview: resolves with the dialog once its preview shows. */
export async function previewMarketplace(page: Page, source: string): Promise<Locator> {
  await page.getByRole('button', { name: 'Add Repository' }).click();
  const dialog = await visible(marketplaceDialog(page));
  await dialog.getByRole('textbox', { name: 'Repository', exact: true }).fill(source);
  await dialog.getByRole('button', { name: 'Preview', exact: true }).click();
  await visible(dialog.getByRole('heading', { name: /^Preview: / }));
  return dialog;
}

/** The marketplace groups of the page: "Yours", the organization's, the instance's. */
export const marketplaceGroup = (page: Page, title: string | RegExp) =>
  page.getByRole('region', { name: title }).filter({ has: page.getByRole('heading', { level: 3, name: title }) });

/** The Skills & Plugins table's row of plugin `name`. */
export const pluginRow = (page: Page, name: string) =>
  page
    .getByRole('table')
    .getByRole('row')
    .filter({ has: page.getByRole('rowheader', { name: new RegExp(`^${name}\\b`) }) });
