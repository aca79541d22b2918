import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Repositories } from '../data/index.ts';
import { conversationInSandbox } from './conversation-sandbox.ts';
import { conversationOf } from './conversation-view.ts';
import type { ConversationDeps } from './deps.ts';
import { redacted } from './redact.ts';

const run = promisify(execFile);
/** Events read from the store at a time. */
const PAGE = 500;

/** What an export reads: the user's conversation, its sandbox's status, its events and the secrets to keep out. */
export interface ExportDeps extends Pick<ConversationDeps, 'sandboxes'> {
  repositories: ConversationDeps['repositories'] & Pick<Repositories, 'events'>;
}

/** A zip made in a temporary directory, to send as `name`; `dispose` removes it. */
export interface ConversationZip {
  file: string;
  name: string;
  dispose: () => Promise<void>;
}

/**
 * The user's conversation exported from what the app stores (so it works while the sandbox is paused or gone), as
 * OpenHands' export lays it out: `meta.json` (the conversation as its owner reads it, without its session key)
 * and one `event_<n>_<id>.json` per event, numbered in the conversation's order. The values of the user's
 * secrets and provider tokens are masked wherever an event holds them. Zipped with the system `zip`.
 */
export async function exportConversation(deps: ExportDeps, userId: string, id: string): Promise<ConversationZip> {
  const { row, sandbox } = await conversationInSandbox(deps, userId, id);
  const secrets = await secretValuesOf(deps.repositories, userId);
  const dir = await mkdtemp(join(tmpdir(), 'bosun-export-'));
  const dispose = () => rm(dir, { recursive: true, force: true });
  try {
    const root = join(dir, 'conversation');
    await mkdir(root);
    const meta = { ...conversationOf(row, sandbox), session_api_key: null };
    await writeFile(join(root, 'meta.json'), JSON.stringify(meta, null, 2));
    let index = 0;
    for (let afterSeq: number | undefined; ; ) {
      const rows = await deps.repositories.events.page(userId, id, {
        descending: false,
        limit: PAGE,
        ...(afterSeq === undefined ? {} : { afterSeq }),
      });
      for (const event of rows) {
        index += 1;
        const name = `event_${String(index).padStart(6, '0')}_${safeName(event.event_id)}.json`;
        await writeFile(join(root, name), masked(event.json, secrets));
      }
      if (rows.length < PAGE) break;
      afterSeq = rows.at(-1)?.seq;
    }
    const file = join(dir, 'conversation.zip');
    await run('zip', ['-q', '-r', '-X', file, '.'], { cwd: root });
    return { file, name: `conversation_${id}.zip`, dispose };
  } catch (error) {
    await dispose();
    throw error;
  }
}

/** An event id as a file name: nothing but letters, digits, `-` and `_` (an id is the agent server's to choose). */
function safeName(id: string): string {
  return id.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 100);
}

/** The values of the user's custom secrets and provider tokens. */
async function secretValuesOf(repositories: ExportDeps['repositories'], userId: string): Promise<string[]> {
  const values = Object.values(await repositories.secrets.values(userId));
  for (const { provider } of await repositories.providerTokens.list(userId)) {
    const token = await repositories.providerTokens.token(userId, provider);
    if (token) values.push(token.token);
  }
  return values.filter((value) => value.length >= 4);
}

/** The event's JSON with every secret value in its strings masked (parsed, so that the JSON stays valid). */
function masked(json: string, secrets: readonly string[]): string {
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
