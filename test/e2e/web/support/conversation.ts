import { type AppServerClient, iterateConversationEvents } from '@bosun/client';
import type { StoredEvent } from '@bosun/protocol';
import type { Page } from 'playwright-core';
import { until as pollUntil } from '../../until.ts';
import { STEP_TIMEOUT, visible } from './browser.ts';

// biome-ignore lint/suspicious/noExplicitAny: the tests read wire JSON loosely and assert on it.
export type Json = any;

/** The conversation page's badge of what the agent is doing (Running, Finished, Waiting for approval...). */
export const agentStatus = (page: Page) => page.getByTitle('What the agent is doing');

/** Waits until the agent's status badge reads `label`. */
export async function untilAgentStatus(page: Page, label: string | RegExp, timeout = 90_000): Promise<void> {
  await agentStatus(page).filter({ hasText: label }).first().waitFor({ state: 'visible', timeout });
}

/** The timeline (`role=log`, "Conversation"). */
export const timeline = (page: Page) => page.getByRole('log', { name: 'Conversation' });

/** The message box under a conversation. */
export const composer = (page: Page) => page.getByRole('textbox', { name: 'Message to the agent' });

/**
 * Starts a conversation from the home page as a person does: the task typed into "What should the agent do?",
 * Enter; resolves with the conversation's id once its page (no longer the start's) shows.
 */
export async function startFromHome(page: Page, task: string): Promise<string> {
  await page.goto('/');
  const box = await visible(page.getByRole('textbox', { name: 'What should the agent do?' }));
  await box.fill(task);
  await box.press('Enter');
  return untilConversationPage(page);
}

/** Waits for the conversation's own page (after the start view hands over) and answers its id. */
export async function untilConversationPage(page: Page): Promise<string> {
  await visible(timeline(page).or(page.getByText('No messages yet.')));
  await composer(page).waitFor({ state: 'visible', timeout: 120_000 });
  const id = /\/conversations\/([^/?#]+)/.exec(page.url())?.[1];
  if (!id) throw new Error(`not on a conversation page: ${page.url()}`);
  return id;
}

/** Every event the app stores for conversation `id`, in order. */
export async function storedEvents(api: AppServerClient, id: string): Promise<Json[]> {
  const all: Json[] = [];
  for await (const event of iterateConversationEvents(api, id, { limit: 100 })) all.push(event as StoredEvent);
  return all;
}

/** Polls `probe` until it answers something other than undefined, within a browser step's time unless told. */
export const until = <T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = STEP_TIMEOUT): Promise<T> =>
  pollUntil(what, probe, timeoutMs);
