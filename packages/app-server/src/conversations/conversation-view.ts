import type {
  AppConversation,
  LoadedMarketplace,
  MetricsSnapshot,
  ProviderType,
  ResolvedPlugin,
} from '@bosun/protocol';
import type { AppConversation as ConversationRow } from '../data/index.ts';
import type { Sandbox } from '../sandboxes/index.ts';

/** A conversation as its owner sees it: the sandbox's live status; its agent server's URL and key while it runs. */
export function conversationOf(row: ConversationRow, sandbox: Sandbox | undefined): AppConversation {
  const running = sandbox?.status === 'RUNNING' && sandbox.agentServerUrl !== null;
  return {
    id: row.id,
    created_by_user_id: row.user_id,
    sandbox_id: row.sandbox_id,
    selected_repository: row.selected_repository,
    selected_branch: row.selected_branch,
    git_provider: row.git_provider as ProviderType | null,
    title: row.title,
    trigger: (row.conversation_trigger ?? null) as AppConversation['trigger'],
    pr_number: row.pr_number ? (JSON.parse(row.pr_number) as number[]) : [],
    llm_model: row.llm_model,
    agent_kind: 'openhands',
    metrics: row.metrics === null ? null : (JSON.parse(row.metrics) as MetricsSnapshot),
    parent_conversation_id: null,
    sub_conversation_ids: [],
    public: row.is_public === 1,
    tags: {},
    created_at: row.created_at,
    updated_at: row.updated_at,
    sandbox_status: sandbox?.status ?? 'MISSING',
    sandbox_status_detail: sandbox ? sandbox.statusDetail : 'the sandbox no longer exists',
    execution_status: running ? (row.execution_status as AppConversation['execution_status']) : null,
    conversation_url: running ? `${sandbox.browserUrl ?? sandbox.agentServerUrl}/api/conversations/${row.id}` : null,
    session_api_key: running ? sandbox.sessionApiKey : null,
    acp_server: null,
    launched_agent_profile: null,
    loaded_marketplaces: row.loaded_marketplaces ? (JSON.parse(row.loaded_marketplaces) as LoadedMarketplace[]) : [],
    loaded_plugins: row.loaded_plugins ? (JSON.parse(row.loaded_plugins) as ResolvedPlugin[]) : [],
  };
}
