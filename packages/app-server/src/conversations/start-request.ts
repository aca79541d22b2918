import type { AppConversationStartRequest, AppConversationStartTask } from '@bosun/protocol';
import type { StartTaskRecord } from '../data/index.ts';
import { MASK } from './redact.ts';

/** The fields of a start request Bosun reads; the others (of other OpenHands releases) are ignored. */
const KNOWN = [
  'sandbox_id',
  'conversation_id',
  'initial_message',
  'system_message_suffix',
  'llm_model',
  'selected_repository',
  'selected_branch',
  'git_provider',
  'title',
  'plugins',
  'secrets',
  'agent_type',
  'suggested_task',
  'trigger',
  'pr_number',
  'public',
] as const;

/** The request as the task echoes (and the database keeps) it: the known fields, each secret's value masked. */
export function maskedRequest(request: AppConversationStartRequest): AppConversationStartRequest {
  const echo: Record<string, unknown> = {};
  for (const field of KNOWN) {
    if (request[field] !== undefined) echo[field] = request[field];
  }
  if (request.secrets) echo.secrets = Object.fromEntries(Object.keys(request.secrets).map((name) => [name, MASK]));
  return echo as AppConversationStartRequest;
}

/** A stored task as the wire has it. */
export function startTaskOf(record: StartTaskRecord): AppConversationStartTask {
  return {
    id: record.id,
    created_by_user_id: record.user_id,
    status: record.status as AppConversationStartTask['status'],
    detail: record.detail,
    app_conversation_id: record.app_conversation_id,
    sandbox_id: record.sandbox_id,
    agent_server_url: record.agent_server_url,
    request: JSON.parse(record.request) as AppConversationStartRequest,
    problems: JSON.parse(record.problems) as string[],
    created_at: record.created_at,
    updated_at: record.updated_at,
  };
}
