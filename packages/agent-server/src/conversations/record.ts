import type {
  ConversationExecutionStatus,
  ResolvedPlugin,
  ResolvedSkillRepository,
  ResolvedStartRequest,
} from '@bosun/protocol';
import type { CatalogRow } from './repository.ts';

/**
 * A plugin as the conversation loaded it: what is shown (`resolved`, with the commit SHA) and what is needed to
 * load that very commit again after a restart (`fetch`: null when it never loaded; `entry`: the marketplace
 * entry standing in for `plugin.json`).
 */
export interface RecordedPlugin {
  resolved: ResolvedPlugin;
  fetch: { source: string; ref?: string | null; repo_path?: string | null } | null;
  entry?: { json: Record<string, unknown>; path: string };
}

/** What the catalog keeps of a conversation (its `data` column): the request it started from and its state. */
export interface ConversationRecord {
  request: ResolvedStartRequest;
  title: string | null;
  tags: Record<string, string>;
  execution_status: ConversationExecutionStatus;
  stats: { usage_to_metrics: Record<string, unknown> };
  activated_knowledge_skills: string[];
  blocked_actions: Record<string, string>;
  blocked_messages: Record<string, string>;
  last_user_message_id: string | null;
  /** The plugins loaded, recorded the first time the agent is built; absent until then. */
  plugins?: RecordedPlugin[];
  /**
   * The skill repositories loaded when the agent was first created, with their commits: later loads (after a
   * restart or an eviction) use the same commits, so the conversation keeps the same skills. Absent until then.
   */
  skill_repositories?: ResolvedSkillRepository[];
  /** The conversation this one was forked from, and the last event copied (absent: not a fork). */
  forked_from?: { conversation_id: string; event_id: string | null };
  created_at: string;
  updated_at: string;
}

/** The catalog row of a new conversation (no events yet). */
export function newCatalogRow(id: string, record: ConversationRecord): CatalogRow {
  return {
    id,
    status: record.execution_status,
    title: record.title,
    created_at: record.created_at,
    updated_at: record.updated_at,
    last_seq: 0,
    data: JSON.stringify(record),
  };
}

export function newRecord(request: ResolvedStartRequest, now: string): ConversationRecord {
  return {
    request,
    title: request.title ?? null,
    tags: request.tags,
    execution_status: 'idle',
    stats: { usage_to_metrics: {} },
    activated_knowledge_skills: [],
    blocked_actions: {},
    blocked_messages: {},
    last_user_message_id: null,
    created_at: now,
    updated_at: now,
  };
}
