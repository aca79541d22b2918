import type { AppServerClient } from '@bosun/client';
import type { Script } from '@bosun/llm-replay';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { screenshot, visible } from './browser.ts';
import { timeline, until } from './conversation.ts';
import { type MarketplaceHost, startMarketplaceHost } from './marketplace-host.ts';
import { type WebSuite, useWebSuite } from './suite.ts';

/** A web suite whose app reads its Plugin Directory from the marketplace host, and that host. */
export interface PluginSuite extends WebSuite {
  /** The Git host on loopback with `github:acme/plugins` (read inside tests only). */
  host: MarketplaceHost;
}

/**
 * One app server, llm-replay and Chromium per file (useWebSuite), the app's Plugin Directory being the marketplace
 * `github:acme/plugins` of a Git host on loopback, `greeter` featured, the owner's LLM pointed at llm-replay.
 */
export function usePluginSuite(script: Script): PluginSuite {
  let host: MarketplaceHost | undefined;
  const suite = useWebSuite({
    script,
    app: async () => {
      host = await startMarketplaceHost();
      const port = new URL(host.url).port;
      return {
        env: {
          BOSUN_GIT_GITHUB_URL: host.url,
          BOSUN_GIT_ALLOW_PRIVATE_HOSTS: 'true',
          BOSUN_PLUGIN_DIRECTORY_SOURCE: host.source,
          BOSUN_PLUGIN_DIRECTORY_FEATURED: 'greeter',
          // The sandbox (bubblewrap, its own network) fetches the plugins from the host: that host:port only.
          BOSUN_SANDBOX_NETWORK: 'allow',
          BOSUN_SANDBOX_ALLOW_HOSTS: `127.0.0.1:${port}`,
        },
      };
    },
  });
  beforeAll(() => suite.configureLlm());
  afterAll(async () => {
    await host?.close();
  });
  return Object.create(suite, {
    host: {
      get() {
        if (!host) throw new Error('the marketplace host did not start');
        return host;
      },
    },
  }) as PluginSuite;
}

/** The trust checkbox of the review step (its label names the sources). */
export const trustBox = (page: Page) => page.getByRole('checkbox', { name: /^I trust / });

/** The review step's Start Conversation button. */
export const startButton = (page: Page) => page.getByRole('button', { name: 'Start Conversation' });

/**
 * After Start Conversation: the start's steps show (kept as the screenshot `shotName`), then the conversation's page
 * once the start is READY; resolves with the conversation's id.
 */
export async function untilRunningConversation(page: Page, api: AppServerClient, shotName: string): Promise<string> {
  await page.waitForURL((url) => /^\/conversations\/[^/]+$/.test(url.pathname));
  const taskId = decodeURIComponent(page.url().split('/conversations/')[1]?.split(/[?#]/)[0] ?? '');
  await visible(page.getByRole('list', { name: 'Steps of the start' }));
  await shotFromTop(page, shotName, { settle: false });
  const task = await until(
    'the start READY (or ERROR)',
    async () => {
      const [current] = await api.get('/api/v1/app-conversations/start-tasks', { query: { ids: [taskId] } });
      return current?.status === 'READY' || current?.status === 'ERROR' ? current : undefined;
    },
    120_000,
  );
  const conversationId = task.app_conversation_id;
  if (task.status === 'ERROR' || !conversationId) throw new Error(`the start failed: ${task.detail}`);
  await page.waitForURL((url) => url.pathname === `/conversations/${conversationId}`, { timeout: 60_000 });
  await visible(timeline(page).or(page.getByText('No messages yet.')));
  return conversationId;
}

/**
 * The flow's screenshot, taken from the top of the page: a full-page shot of a scrolled page draws the sticky header
 * where the window was scrolled to, over the content.
 */
export async function shotFromTop(page: Page, name: string, options: { settle?: boolean } = {}): Promise<string> {
  await page.evaluate('window.scrollTo(0, 0)');
  return screenshot(page, name, options);
}
