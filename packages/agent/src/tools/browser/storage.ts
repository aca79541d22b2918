import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ActionOf } from '@bosun/protocol';
import type { BrowserContext } from 'playwright-core';
import { BrowserProblem } from './observation.ts';

type SetStorageAction = ActionOf<'BrowserSetStorageAction'>;
type StorageState = Parameters<BrowserContext['setStorageState']>[0] & object;

/** The most characters of storage state one observation carries; a larger state is saved to a file. */
export const MAX_STORAGE_CHARS = 30_000;

export interface StorageRead {
  text: string;
  /** Where the whole state was saved when it did not fit. */
  savedDir?: string;
}

/** `browser_get_storage`: the cookies and the local storage of every origin, as a Playwright storage state. */
export async function getStorage(context: BrowserContext, stateDir: string): Promise<StorageRead> {
  const state = await context.storageState();
  const json = JSON.stringify(state, null, 2);
  const summary = `Storage state: ${count(state.cookies.length, 'cookie')}, local storage of ${count(state.origins.length, 'origin')}.`;
  if (json.length <= MAX_STORAGE_CHARS) {
    return { text: `${summary} Pass it to browser_set_storage as \`storage_state\` to restore it.\n${json}` };
  }
  const dir = join(stateDir, 'browser');
  const file = join(dir, `storage-state-${Date.now()}.json`);
  await mkdir(dir, { recursive: true });
  await writeFile(file, json);
  return {
    text: `${summary} It is ${json.length} characters long, too long to show: it was saved to ${file}.`,
    savedDir: dir,
  };
}

/** `browser_set_storage`: replaces the cookies and local storage with the given state. */
export async function setStorage(context: BrowserContext, action: SetStorageAction): Promise<string> {
  const state = storageStateOf(action.storage_state);
  await context.setStorageState(state);
  return `Storage restored: ${count(state.cookies.length, 'cookie')}, local storage of ${count(state.origins.length, 'origin')} (what was stored before was cleared). Pages already open see the new cookies on their next request; reload them with browser_navigate to see the new local storage.`;
}

function storageStateOf(value: Record<string, unknown>): StorageState {
  const cookies = value.cookies ?? [];
  const origins = value.origins ?? [];
  if (!Array.isArray(cookies)) throw new BrowserProblem('storage_state.cookies must be a list of cookies.');
  if (!Array.isArray(origins)) {
    throw new BrowserProblem('storage_state.origins must be a list of {origin, localStorage: [{name, value}]}.');
  }
  for (const [index, origin] of origins.entries()) {
    const entry = origin as { origin?: unknown; localStorage?: unknown };
    if (typeof entry?.origin !== 'string' || !Array.isArray(entry.localStorage)) {
      throw new BrowserProblem(
        `storage_state.origins[${index}] must be {"origin": "https://...", "localStorage": [{"name", "value"}]}.`,
      );
    }
  }
  return { cookies, origins } as StorageState;
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}
