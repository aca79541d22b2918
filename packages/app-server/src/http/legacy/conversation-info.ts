import type { AppConversation } from '@bosun/protocol';

/** OpenHands' `ConversationInfo` (`GET /api/conversations/{id}`), as its web client reads a V1 conversation. */
export interface LegacyConversationInfo {
  conversation_id: string;
  title: string;
  status: 'STARTING' | 'RUNNING' | 'STOPPED' | 'ARCHIVED' | 'ERROR';
  runtime_status: 'STATUS$READY' | 'STATUS$ERROR' | null;
  url: string | null;
  session_api_key: string | null;
  conversation_version: 'V1';
  sub_conversation_ids: string[];
  sandbox_id: string | null;
  selected_repository: string | null;
  selected_branch: string | null;
  git_provider: string | null;
  trigger: string | null;
  pr_number: number[];
  num_connections: number;
  public: boolean | null;
  created_at: string;
  last_updated_at: string;
}

/** The conversation status OpenHands derives from the sandbox's (`app_conversation_models` → `ConversationStatus`). */
const STATUS_OF_SANDBOX: Record<string, LegacyConversationInfo['status']> = {
  STARTING: 'STARTING',
  RUNNING: 'RUNNING',
  PAUSED: 'STOPPED',
  ERROR: 'ERROR',
  MISSING: 'ARCHIVED',
};

const FAILED = new Set(['error', 'stuck']);

/**
 * A V1 conversation as OpenHands' `ConversationInfo`. `conversation_version` is always `V1`: the web client then
 * opens the V1 WebSocket on the host and path prefix of `url` (the conversation on its agent server) and starts and
 * stops through the V1 sandbox routes. A running sandbox is ready unless its agent reported an error.
 */
export function legacyConversationInfo(conversation: AppConversation): LegacyConversationInfo {
  const status = STATUS_OF_SANDBOX[conversation.sandbox_status] ?? 'STOPPED';
  const failed = conversation.execution_status !== null && FAILED.has(conversation.execution_status);
  return {
    conversation_id: conversation.id,
    title: conversation.title ?? `Conversation ${conversation.id.replaceAll('-', '').slice(0, 5)}`,
    status,
    runtime_status: status === 'RUNNING' ? (failed ? 'STATUS$ERROR' : 'STATUS$READY') : null,
    url: conversation.conversation_url,
    session_api_key: conversation.session_api_key,
    conversation_version: 'V1',
    sub_conversation_ids: conversation.sub_conversation_ids,
    sandbox_id: conversation.sandbox_id,
    selected_repository: conversation.selected_repository,
    selected_branch: conversation.selected_branch,
    git_provider: conversation.git_provider,
    trigger: conversation.trigger,
    pr_number: conversation.pr_number,
    num_connections: 0,
    public: conversation.public,
    created_at: conversation.created_at,
    last_updated_at: conversation.updated_at,
  };
}
