import type { AppConversation, SharedConversation } from '@bosun/protocol';
import type { AppConversation as ConversationRow, Repositories } from '../data/index.ts';
import { masked, secretValuesOf } from './conversation-export.ts';
import { conversationOf } from './conversation-view.ts';

/** What the shared reads take: public conversations, their events, and their owners' secrets to mask. */
export interface SharedConversationDeps {
  repositories: Pick<Repositories, 'conversations' | 'events' | 'secrets' | 'providerTokens'>;
}

/** A public conversation as a stranger reads it: its owner (for the event store's reads) and a masker. */
export interface OpenedShare {
  id: string;
  ownerId: string;
  /** A stored event's JSON with the owner's secret values masked, as the conversation's download masks them. */
  mask: (json: string) => string;
}

/**
 * Conversations their owners made public, read by anyone from what the app stores (so they answer while the
 * sandbox is paused or gone). A private, deleted or unknown conversation is alike: not found.
 */
export class SharedConversations {
  constructor(private readonly deps: SharedConversationDeps) {}

  /** The public conversations among `ids`, in order, null for each other. */
  async getMany(ids: readonly string[]): Promise<(SharedConversation | null)[]> {
    const rows = new Map((await this.deps.repositories.conversations.getPublic(ids)).map((row) => [row.id, row]));
    return ids.map((id) => {
      const row = rows.get(id);
      return row ? sharedConversationOf(row) : null;
    });
  }

  /** The public conversation `id` ready to read its events, or undefined when it is not (or no longer) public. */
  async open(id: string): Promise<OpenedShare | undefined> {
    const [row] = await this.deps.repositories.conversations.getPublic([id]);
    if (!row) return undefined;
    const secrets = await secretValuesOf(this.deps.repositories, row.user_id);
    return { id: row.id, ownerId: row.user_id, mask: (json) => masked(json, secrets) };
  }
}

/** The fields of a conversation a stranger may read (the protocol's `SharedConversation` says what is left out). */
const SHARED_FIELDS = [
  'id',
  'selected_repository',
  'selected_branch',
  'git_provider',
  'title',
  'pr_number',
  'llm_model',
  'metrics',
  'parent_conversation_id',
  'sub_conversation_ids',
  'created_at',
  'updated_at',
] as const satisfies readonly (keyof SharedConversation & keyof AppConversation)[];

/** The conversation as a stranger reads it: an allow-list of its owner's view, neither owner nor sandbox named. */
export function sharedConversationOf(row: ConversationRow): SharedConversation {
  const view = conversationOf(row, undefined);
  const fields = Object.fromEntries(SHARED_FIELDS.map((field) => [field, view[field]]));
  return {
    ...(fields as Pick<AppConversation, (typeof SHARED_FIELDS)[number]>),
    created_by_user_id: null,
    sandbox_id: null,
  };
}
