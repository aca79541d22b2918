// Made by `npm run generate:client` from the server's OpenAPI document: do not edit.
import type * as P from '@bosun/protocol';
import type { WithDefaults } from '../request-defaults.ts';

/** Every operation of the agent server, by path and method: its path parameters, query, body and answer. */
export interface AgentServerApi {
  '/': {
    get: {
      answer: { title: string; version: string; uptime: number; idle_time: number; node_version: string; docs: string };
    };
  };
  '/alive': {
    get: { answer: { status: string; message?: string } };
  };
  '/api/bash/bash_events': {
    delete: { answer: P.ClearedBashEvents };
  };
  '/api/bash/bash_events/': {
    get: { body: string[]; answer: (P.BashEvent | null)[] };
  };
  '/api/bash/bash_events/batch': {
    post: { body: string[]; answer: (P.BashEvent | null)[] };
  };
  '/api/bash/bash_events/search': {
    get: {
      query?: {
        kind__eq?: 'BashCommand' | 'BashOutput';
        command_id__eq?: string;
        timestamp__gte?: string;
        timestamp__lt?: string;
        order__gt?: number;
        sort_order?: P.BashEventSortOrder;
        page_id?: string;
        limit?: number;
      };
      answer: P.BashEventPage;
    };
  };
  '/api/bash/bash_events/{event_id}': {
    get: { params: { event_id: string }; answer: P.BashEvent };
  };
  '/api/bash/execute_bash_command': {
    post: { body: WithDefaults<P.ExecuteBashRequest, 'timeout'>; answer: P.BashOutput };
  };
  '/api/bash/start_bash_command': {
    post: { body: WithDefaults<P.ExecuteBashRequest, 'timeout'>; answer: P.BashCommand };
  };
  '/api/conversations': {
    get: { query: { ids: string[] }; answer: (P.ConversationInfo | null)[] };
    post: {
      body: WithDefaults<
        P.StartConversationRequest,
        | 'auto_load'
        | 'autotitle'
        | 'cache_prompt'
        | 'caching_prompt'
        | 'confirm_unknown'
        | 'confirmation_policy'
        | 'disabled_skills'
        | 'drop_params'
        | 'enable_encrypted_reasoning'
        | 'enabled'
        | 'evaluate'
        | 'header_name'
        | 'include_default_tools'
        | 'keep_first'
        | 'kind'
        | 'load_builtin_skills'
        | 'load_project_skills'
        | 'log_completions'
        | 'matcher'
        | 'max_iterations'
        | 'max_message_chars'
        | 'max_size'
        | 'mcp_config'
        | 'modify_params'
        | 'native_tool_calling'
        | 'num_retries'
        | 'params'
        | 'registered_marketplaces'
        | 'retry_max_wait'
        | 'retry_min_wait'
        | 'retry_multiplier'
        | 'role'
        | 'run'
        | 'scope'
        | 'secrets'
        | 'skill_repositories'
        | 'stream'
        | 'stuck_detection'
        | 'system_prompt_kwargs'
        | 'tags'
        | 'threshold'
        | 'timeout'
        | 'tool_concurrency_limit'
        | 'tools'
        | 'type'
        | 'usage_id'
      >;
      answer: P.ConversationInfo;
    };
  };
  '/api/conversations/count': {
    get: {
      query?: {
        status?:
          | 'idle'
          | 'running'
          | 'paused'
          | 'waiting_for_confirmation'
          | 'finished'
          | 'error'
          | 'stuck'
          | 'deleting';
      };
      answer: number;
    };
  };
  '/api/conversations/search': {
    get: {
      query?: {
        page_id?: string;
        limit?: number;
        status?:
          | 'idle'
          | 'running'
          | 'paused'
          | 'waiting_for_confirmation'
          | 'finished'
          | 'error'
          | 'stuck'
          | 'deleting';
        sort_order?: 'CREATED_AT' | 'UPDATED_AT' | 'CREATED_AT_DESC' | 'UPDATED_AT_DESC';
      };
      answer: { items: P.ConversationInfo[]; next_page_id: string | null };
    };
  };
  '/api/conversations/{conversation_id}': {
    get: { params: { conversation_id: string }; answer: P.ConversationInfo };
    patch: { params: { conversation_id: string }; body: P.UpdateConversationRequest; answer: { success: boolean } };
    delete: { params: { conversation_id: string }; answer: { success: boolean } };
  };
  '/api/conversations/{conversation_id}/agent_final_response': {
    get: { params: { conversation_id: string }; answer: P.AgentFinalResponse };
  };
  '/api/conversations/{conversation_id}/ask_agent': {
    post: { params: { conversation_id: string }; body: { question: string }; answer: { response: string } };
  };
  '/api/conversations/{conversation_id}/condense': {
    post: { params: { conversation_id: string }; answer: { success: boolean } };
  };
  '/api/conversations/{conversation_id}/confirmation_policy': {
    post: {
      params: { conversation_id: string };
      body: WithDefaults<P.SetConfirmationPolicyRequest, 'confirm_unknown' | 'threshold'>;
      answer: { success: boolean };
    };
  };
  '/api/conversations/{conversation_id}/events': {
    get: { params: { conversation_id: string }; body: string[]; answer: (P.StoredEvent | null)[] };
    post: {
      params: { conversation_id: string };
      body: WithDefaults<P.SendMessageRequest, 'cache_prompt' | 'role' | 'run' | 'type'>;
      answer: { success: boolean };
    };
  };
  '/api/conversations/{conversation_id}/events/batch': {
    post: { params: { conversation_id: string }; body: string[]; answer: (P.StoredEvent | null)[] };
  };
  '/api/conversations/{conversation_id}/events/count': {
    get: {
      params: { conversation_id: string };
      query?: {
        kind?: string;
        source?: 'agent' | 'user' | 'environment';
        body?: string;
        timestamp__gte?: string;
        timestamp__lt?: string;
      };
      answer: number;
    };
  };
  '/api/conversations/{conversation_id}/events/respond_to_confirmation': {
    post: { params: { conversation_id: string }; body: P.ConfirmationResponseRequest; answer: { success: boolean } };
  };
  '/api/conversations/{conversation_id}/events/search': {
    get: {
      params: { conversation_id: string };
      query?: {
        kind?: string;
        source?: 'agent' | 'user' | 'environment';
        body?: string;
        timestamp__gte?: string;
        timestamp__lt?: string;
        page_id?: string;
        after_event_id?: string;
        limit?: number;
        sort_order?: 'TIMESTAMP' | 'TIMESTAMP_DESC';
      };
      answer: { items: P.StoredEvent[]; next_page_id: string | null };
    };
  };
  '/api/conversations/{conversation_id}/events/{event_id}': {
    get: { params: { conversation_id: string; event_id: string }; answer: P.StoredEvent };
  };
  '/api/conversations/{conversation_id}/fork': {
    post: {
      params: { conversation_id: string };
      body?: WithDefaults<P.ForkConversationRequest, 'reset_metrics'>;
      answer: P.ConversationInfo;
    };
  };
  '/api/conversations/{conversation_id}/interrupt': {
    post: { params: { conversation_id: string }; answer: { success: boolean } };
  };
  '/api/conversations/{conversation_id}/load_plugin': {
    post: { params: { conversation_id: string }; body: P.LoadPluginRequest; answer: { success: boolean } };
  };
  '/api/conversations/{conversation_id}/pause': {
    post: { params: { conversation_id: string }; answer: { success: boolean } };
  };
  '/api/conversations/{conversation_id}/recordings': {
    get: {
      params: { conversation_id: string };
      answer: { items: { name: string; size_bytes: number; modified_at: string }[] };
    };
  };
  '/api/conversations/{conversation_id}/recordings/{file_name}': {
    get: { params: { conversation_id: string; file_name: string }; answer: string };
  };
  '/api/conversations/{conversation_id}/run': {
    post: { params: { conversation_id: string }; answer: { success: boolean } };
  };
  '/api/conversations/{conversation_id}/secrets': {
    post: {
      params: { conversation_id: string };
      body: {
        secrets: Record<
          string,
          | string
          | { kind?: 'StaticSecret'; value: string; description?: string | null }
          | { kind: 'LookupSecret'; url: string; headers?: Record<string, string>; description?: string | null }
        >;
      };
      answer: { success: boolean };
    };
  };
  '/api/conversations/{conversation_id}/security_analyzer': {
    post: { params: { conversation_id: string }; body: P.SetSecurityAnalyzerRequest; answer: { success: boolean } };
  };
  '/api/conversations/{conversation_id}/switch_llm': {
    post: {
      params: { conversation_id: string };
      body: WithDefaults<
        P.SwitchLLMRequest,
        | 'caching_prompt'
        | 'drop_params'
        | 'enable_encrypted_reasoning'
        | 'log_completions'
        | 'max_message_chars'
        | 'modify_params'
        | 'native_tool_calling'
        | 'num_retries'
        | 'retry_max_wait'
        | 'retry_min_wait'
        | 'retry_multiplier'
        | 'stream'
        | 'timeout'
        | 'usage_id'
      >;
      answer: { success: boolean };
    };
  };
  '/api/file/download': {
    get: { query: { path: string }; answer: unknown };
  };
  '/api/file/download-trajectory/{conversation_id}': {
    get: { params: { conversation_id: string }; answer: unknown };
  };
  '/api/file/upload': {
    post: { query: { path: string }; body: unknown; answer: { success: boolean } };
  };
  '/api/git/changes': {
    get: { query: { path: string; ref?: string }; answer: P.GitChange[] };
  };
  '/api/git/diff': {
    get: { query: { path: string; ref?: string; commit?: string }; answer: P.GitDiff };
  };
  '/api/hooks': {
    post: { body?: { project_dir?: string | null }; answer: { hook_config: P.HookConfig | null } };
  };
  '/api/skills': {
    post: {
      body: WithDefaults<
        P.SkillsRequest,
        | 'auto_load'
        | 'disabled_skills'
        | 'exposed_urls'
        | 'load_builtin'
        | 'load_org'
        | 'load_project'
        | 'load_public'
        | 'load_user'
        | 'registered_marketplaces'
        | 'scope'
        | 'skill_repositories'
      >;
      answer: P.SkillsResponse;
    };
  };
  '/api/tools/': {
    get: { answer: string[] };
  };
  '/health': {
    get: { answer: { status: string; message?: string } };
  };
  '/ready': {
    get: { answer: { status: string; message?: string } };
  };
  '/server_info': {
    get: {
      answer: { title: string; version: string; uptime: number; idle_time: number; node_version: string; docs: string };
    };
  };
  '/v1/models': {
    get: { answer: { object: 'list'; data: { id: string; object: 'model'; created: number; owned_by: string }[] } };
  };
}
