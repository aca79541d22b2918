import type { Readable } from 'node:stream';
import { type ZipEntry, zipStream } from '@bosun/http';
import type { Repositories } from '../data/index.ts';
import { conversationInSandbox } from './conversation-sandbox.ts';
import { conversationOf } from './conversation-view.ts';
import type { ConversationDeps } from './deps.ts';
import { redacted } from './redact.ts';

/** Events read from the store at a time. */
const PAGE = 500;

/** What an export reads: the user's conversation, its sandbox's status, its events and the secrets to keep out. */
export interface ExportDeps extends Pick<ConversationDeps, 'sandboxes'> {
  repositories: ConversationDeps['repositories'] & Pick<Repositories, 'events'>;
}

/** A zip made while it is sent, to send as `name`. */
export interface ConversationZip {
  zip: Readable;
  name: string;
}

/**
 * The user's conversation exported from what the app stores (so it works while the sandbox is paused or gone), as
 * OpenHands' export lays it out: `meta.json` (the conversation as its owner reads it, without its session key)
 * and one `event_<n>_<id>.json` per event, numbered in the conversation's order. The values of the user's
 * secrets and provider tokens are masked wherever an event holds them. The conversation is found (or not: 404)
 * before anything is sent; its events are read a page at a time as the zip reaches them.
 */
export async function exportConversation(deps: ExportDeps, userId: string, id: string): Promise<ConversationZip> {
  const { row, sandbox } = await conversationInSandbox(deps, userId, id);
  const secrets = await secretValuesOf(deps.repositories, userId);
  const meta = { ...conversationOf(row, sandbox), session_api_key: null };
  return { zip: zipStream(exportEntries(deps, userId, id, meta, secrets)), name: `conversation_${id}.zip` };
}

async function* exportEntries(
  deps: ExportDeps,
  userId: string,
  id: string,
  meta: object,
  secrets: readonly string[],
): AsyncGenerator<ZipEntry> {
  yield { path: 'meta.json', content: JSON.stringify(meta, null, 2) };
  let index = 0;
  for (let afterSeq: number | undefined; ; ) {
    const rows = await deps.repositories.events.page(userId, id, {
      descending: false,
      limit: PAGE,
      ...(afterSeq === undefined ? {} : { afterSeq }),
    });
    for (const event of rows) {
      index += 1;
      const path = `event_${String(index).padStart(6, '0')}_${safeName(event.event_id)}.json`;
      yield { path, content: masked(event.json, secrets) };
    }
    if (rows.length < PAGE) return;
    afterSeq = rows.at(-1)?.seq;
  }
}

/** An event id as a file name: nothing but letters, digits, `-` and `_` (an id is the agent server's to choose). */
function safeName(id: string): string {
  return id.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 100);
}

/** The values of the user's custom secrets and provider tokens. */
export async function secretValuesOf(
  repositories: Pick<Repositories, 'secrets' | 'providerTokens'>,
  userId: string,
): Promise<string[]> {
  const values = Object.values(await repositories.secrets.values(userId));
  for (const { provider } of await repositories.providerTokens.list(userId)) {
    const token = await repositories.providerTokens.token(userId, provider);
    if (token) values.push(token.token);
  }
  return values.filter((value) => value.length >= 4);
}

/** The event's JSON with every secret value in its strings masked (parsed, so that the JSON stays valid). */
export function masked(json: string, secrets: readonly string[]): string {
  if (!secrets.some((secret) => json.includes(JSON.stringify(secret).slice(1, -1)))) return json;
  const walk = (value: unknown): unknown => {
    if (typeof value === 'string') return redacted(value, secrets);
    if (Array.isArray(value)) return value.map(walk);
    if (value && typeof value === 'object') {
      return Object.fromEntries(Object.entries(value).map(([key, child]) => [key, walk(child)]));
    }
    return value;
  };
  try {
    return JSON.stringify(walk(JSON.parse(json)));
  } catch {
    return redacted(json, secrets);
  }
}
