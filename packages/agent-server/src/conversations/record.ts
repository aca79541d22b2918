import type { ConversationExecutionStatus, ResolvedSkillRepository, ResolvedStartRequest } from '@bosun/protocol';

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
  /**
   * The skill repositories loaded when the agent was first created, with their commits: later loads (after a
   * restart or an eviction) use the same commits, so the conversation keeps the same skills. Absent until then.
   */
  skill_repositories?: ResolvedSkillRepository[];
  created_at: string;
  updated_at: string;
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
