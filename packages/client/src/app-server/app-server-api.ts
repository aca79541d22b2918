// Made by `npm run generate:client` from the server's OpenAPI document: do not edit.
import type * as P from '@bosun/protocol';
import type { WithDefaults } from '../request-defaults.ts';

/** Every operation of the app server, by path and method: its path parameters, query, body and answer. */
export interface AppServerApi {
  '/README.md': {
    get: { answer: string };
  };
  '/alive': {
    get: { answer: { status: string } };
  };
  '/api/add-git-providers': {
    post: { body: Record<string, unknown>; answer: { message: string } };
  };
  '/api/conversations': {
    get: { query?: { limit?: number; page_id?: string }; answer: Record<string, unknown> };
  };
  '/api/conversations/{conversation_id}': {
    get: { params: { conversation_id: string }; answer: Record<string, unknown> };
    patch: { params: { conversation_id: string }; body: { title: string }; answer: boolean };
    delete: { params: { conversation_id: string }; answer: boolean };
  };
  '/api/conversations/{conversation_id}/config': {
    get: { params: { conversation_id: string }; answer: Record<string, unknown> };
  };
  '/api/options/agents': {
    get: { answer: string[] };
  };
  '/api/options/config': {
    get: { answer: Record<string, unknown> };
  };
  '/api/options/models': {
    get: { answer: string[] };
  };
  '/api/options/security-analyzers': {
    get: { answer: string[] };
  };
  '/api/secrets': {
    get: { answer: { custom_secrets: { name: string; description: string | null }[] } };
    post: { body: { name: string; value: string; description?: string | null }; answer: { message: string } };
  };
  '/api/secrets/{name}': {
    put: { params: { name: string }; body: { name: string; description?: string | null }; answer: { message: string } };
    delete: { params: { name: string }; answer: { message: string } };
  };
  '/api/settings': {
    get: { answer: Record<string, unknown> };
    post: {
      body: {
        llm_api_key?: string | null;
        search_api_key?: string | null;
        condenser_max_size?: number | null;
        mcp_config?: Record<string, unknown> | null;
        [key: string]: unknown;
      };
      answer: { message: string };
    };
  };
  '/api/shared-conversations': {
    get: { query: { ids: string[] }; answer: (P.SharedConversation | null)[] };
  };
  '/api/shared-events': {
    get: { query: { conversation_id: string; id: string[] }; answer: (P.Event | null)[] };
  };
  '/api/shared-events/count': {
    get: {
      query: {
        conversation_id: string;
        kind__eq?: string;
        kind?: string;
        source?: 'agent' | 'user' | 'environment';
        timestamp__gte?: string;
        timestamp__lt?: string;
      };
      answer: number;
    };
  };
  '/api/shared-events/search': {
    get: {
      query: {
        conversation_id: string;
        kind__eq?: string;
        kind?: string;
        source?: 'agent' | 'user' | 'environment';
        timestamp__gte?: string;
        timestamp__lt?: string;
        sort_order?: 'TIMESTAMP' | 'TIMESTAMP_DESC';
        page_id?: string;
        after_event_id?: string;
        limit?: number;
      };
      answer: P.EventPage;
    };
  };
  '/api/shared-events/{conversation_id}/{event_id}': {
    get: { params: { conversation_id: string; event_id: string }; answer: P.Event };
  };
  '/api/unset-provider-tokens': {
    post: { answer: { message: string } };
  };
  '/api/v1/app-conversations': {
    get: { query: { ids: string[] }; answer: (P.AppConversation | null)[] };
    post: {
      body: WithDefaults<P.AppConversationStartRequest, 'cache_prompt' | 'role' | 'run' | 'type'>;
      answer: P.AppConversationStartTask;
    };
  };
  '/api/v1/app-conversations/count': {
    get: {
      query?: {
        title__contains?: string;
        created_at__gte?: string;
        created_at__lt?: string;
        updated_at__gte?: string;
        updated_at__lt?: string;
        sandbox_id__eq?: string;
      };
      answer: number;
    };
  };
  '/api/v1/app-conversations/search': {
    get: {
      query?: {
        title__contains?: string;
        created_at__gte?: string;
        created_at__lt?: string;
        updated_at__gte?: string;
        updated_at__lt?: string;
        sandbox_id__eq?: string;
        page_id?: string;
        limit?: number;
      };
      answer: P.AppConversationPage;
    };
  };
  '/api/v1/app-conversations/start-tasks': {
    get: { query: { ids: string[] }; answer: (P.AppConversationStartTask | null)[] };
  };
  '/api/v1/app-conversations/start-tasks/count': {
    get: { query?: { conversation_id__eq?: string; created_at__gte?: string }; answer: number };
  };
  '/api/v1/app-conversations/start-tasks/search': {
    get: {
      query?: {
        conversation_id__eq?: string;
        created_at__gte?: string;
        sort_order?: P.AppConversationStartTaskSortOrder;
        page_id?: string;
        limit?: number;
      };
      answer: P.AppConversationStartTaskPage;
    };
  };
  '/api/v1/app-conversations/stream-start': {
    post: {
      body: WithDefaults<P.AppConversationStartRequest, 'cache_prompt' | 'role' | 'run' | 'type'>;
      answer: P.AppConversationStartTask[];
    };
  };
  '/api/v1/app-conversations/{conversation_id}': {
    patch: { params: { conversation_id: string }; body: P.AppConversationUpdateRequest; answer: P.AppConversation };
    delete: { params: { conversation_id: string }; answer: P.SuccessResponse };
  };
  '/api/v1/app-conversations/{conversation_id}/download': {
    get: { params: { conversation_id: string }; answer: unknown };
  };
  '/api/v1/app-conversations/{conversation_id}/file': {
    get: { params: { conversation_id: string }; query: { file_path: string }; answer: string };
  };
  '/api/v1/app-conversations/{conversation_id}/git/changes': {
    get: { params: { conversation_id: string }; query?: { path?: string; ref?: string }; answer: P.GitChange[] };
  };
  '/api/v1/app-conversations/{conversation_id}/git/diff': {
    get: { params: { conversation_id: string }; query: { path: string; ref?: string }; answer: P.GitDiff };
  };
  '/api/v1/app-conversations/{conversation_id}/hooks': {
    get: { params: { conversation_id: string }; answer: P.AppConversationHooks };
  };
  '/api/v1/app-conversations/{conversation_id}/pause': {
    post: { params: { conversation_id: string }; answer: P.SuccessResponse };
  };
  '/api/v1/app-conversations/{conversation_id}/resume': {
    post: { params: { conversation_id: string }; answer: P.SuccessResponse };
  };
  '/api/v1/app-conversations/{conversation_id}/send-message': {
    post: {
      params: { conversation_id: string };
      body: WithDefaults<P.AppSendMessageRequest, 'cache_prompt' | 'role' | 'run' | 'type'>;
      answer: P.AppSendMessageResponse;
    };
  };
  '/api/v1/app-conversations/{conversation_id}/skills': {
    get: { params: { conversation_id: string }; answer: P.AppConversationSkills };
  };
  '/api/v1/app-conversations/{conversation_id}/switch_profile': {
    post: { params: { conversation_id: string }; body: P.SwitchProfileRequest; answer: P.SuccessResponse };
  };
  '/api/v1/auth/callback': {
    get: { query?: { code?: string; state?: string; error?: string; error_description?: string }; answer: unknown };
  };
  '/api/v1/auth/login': {
    get: { query?: { provider?: string; return_to?: string }; answer: unknown };
  };
  '/api/v1/auth/logout': {
    get: { query?: { return_to?: string }; answer: unknown };
  };
  '/api/v1/auth/providers': {
    get: { answer: P.LoginMethodList };
  };
  '/api/v1/auth/sign-in': {
    get: { query: { token: string }; answer: unknown };
  };
  '/api/v1/auth/sign-out': {
    post: { answer: P.EditResponse };
  };
  '/api/v1/config/models/search': {
    get: {
      query?: { page_id?: string; limit?: number; query?: string; verified__eq?: boolean; provider__eq?: string };
      answer: P.LLMModelPage;
    };
  };
  '/api/v1/config/providers/search': {
    get: {
      query?: { page_id?: string; limit?: number; query?: string; verified__eq?: boolean };
      answer: P.ProviderPage;
    };
  };
  '/api/v1/conversation/{conversation_id}/events': {
    get: { params: { conversation_id: string }; query: { id: string[] }; answer: (P.Event | null)[] };
  };
  '/api/v1/conversation/{conversation_id}/events/count': {
    get: {
      params: { conversation_id: string };
      query?: {
        kind__eq?: string;
        kind?: string;
        source?: 'agent' | 'user' | 'environment';
        timestamp__gte?: string;
        timestamp__lt?: string;
      };
      answer: number;
    };
  };
  '/api/v1/conversation/{conversation_id}/events/search': {
    get: {
      params: { conversation_id: string };
      query?: {
        kind__eq?: string;
        kind?: string;
        source?: 'agent' | 'user' | 'environment';
        timestamp__gte?: string;
        timestamp__lt?: string;
        sort_order?: 'TIMESTAMP' | 'TIMESTAMP_DESC';
        page_id?: string;
        after_event_id?: string;
        limit?: number;
      };
      answer: P.EventPage;
    };
  };
  '/api/v1/conversations/{conversation_id}/pending-messages': {
    post: {
      params: { conversation_id: string };
      body: WithDefaults<P.PendingMessageRequest, 'cache_prompt' | 'role' | 'type'>;
      answer: P.PendingMessageResponse;
    };
  };
  '/api/v1/git/branches/search': {
    get: {
      query: {
        provider:
          | 'github'
          | 'gitlab'
          | 'bitbucket'
          | 'bitbucket_data_center'
          | 'forgejo'
          | 'azure_devops'
          | 'enterprise_sso';
        repository: string;
        query: string;
        page_id?: string;
        limit?: number;
      };
      answer: P.BranchPage;
    };
  };
  '/api/v1/git/github/app-webhook': {
    post: { answer: P.SuccessResponse };
  };
  '/api/v1/git/installations/search': {
    get: {
      query: {
        provider:
          | 'github'
          | 'gitlab'
          | 'bitbucket'
          | 'bitbucket_data_center'
          | 'forgejo'
          | 'azure_devops'
          | 'enterprise_sso';
        page_id?: string;
        limit?: number;
      };
      answer: P.InstallationPage;
    };
  };
  '/api/v1/git/repositories/search': {
    get: {
      query: {
        provider:
          | 'github'
          | 'gitlab'
          | 'bitbucket'
          | 'bitbucket_data_center'
          | 'forgejo'
          | 'azure_devops'
          | 'enterprise_sso';
        query?: string;
        installation_id?: string;
        page_id?: string;
        limit?: number;
        sort_order?: 'stars-desc' | 'stars-asc' | 'forks-desc' | 'forks-asc' | 'updated-desc' | 'updated-asc';
      };
      answer: P.RepositoryPage;
    };
  };
  '/api/v1/git/suggested-tasks/search': {
    get: { query?: { page_id?: string; limit?: number }; answer: P.SuggestedTaskPage };
  };
  '/api/v1/keys': {
    get: { answer: P.ApiKey[] };
    post: { body: P.ApiKeyCreate; answer: P.ApiKeyCreated };
  };
  '/api/v1/keys/{key_id}': {
    delete: { params: { key_id: string }; answer: P.EditResponse };
  };
  '/api/v1/launch/decode': {
    get: { query: { plugins: string; message?: string }; answer: P.LaunchDecoded };
  };
  '/api/v1/launch/link': {
    post: { body: P.LaunchLinkRequest; answer: P.LaunchLink };
  };
  '/api/v1/marketplaces': {
    get: { query?: { org_id?: string }; answer: P.MarketplaceList };
    post: { body: P.MarketplaceCreate; answer: P.Marketplace };
  };
  '/api/v1/marketplaces/{scope}/{name}': {
    patch: {
      params: { scope: 'instance' | 'organization' | 'personal'; name: string };
      query?: { org_id?: string };
      body: P.MarketplaceUpdate;
      answer: P.Marketplace;
    };
    delete: {
      params: { scope: 'instance' | 'organization' | 'personal'; name: string };
      query?: { org_id?: string; expected_version?: string };
      answer: undefined;
    };
  };
  '/api/v1/marketplaces/{scope}/{name}/approve': {
    post: {
      params: { scope: 'instance' | 'organization' | 'personal'; name: string };
      query?: { org_id?: string };
      body: P.MarketplaceApproval;
      answer: P.Marketplace;
    };
  };
  '/api/v1/organizations': {
    get: { query?: { page_id?: string; limit?: number }; answer: P.OrgPage };
    post: { body: P.OrgCreate; answer: P.OrgResponse };
  };
  '/api/v1/organizations/{org_id}': {
    get: { params: { org_id: string }; answer: P.OrgResponse };
    patch: { params: { org_id: string }; body: P.OrgUpdate; answer: P.OrgResponse };
    delete: { params: { org_id: string }; answer: P.OrgDeletion };
  };
  '/api/v1/organizations/{org_id}/leave': {
    post: { params: { org_id: string }; answer: P.EditResponse };
  };
  '/api/v1/organizations/{org_id}/me': {
    get: { params: { org_id: string }; answer: P.OrgMe };
  };
  '/api/v1/organizations/{org_id}/members': {
    get: { params: { org_id: string }; query?: { page_id?: string; limit?: number }; answer: P.OrgMemberPage };
    post: { params: { org_id: string }; body: P.OrgMemberAdd; answer: P.OrgMemberResponse };
  };
  '/api/v1/organizations/{org_id}/members/count': {
    get: { params: { org_id: string }; query?: { email?: string }; answer: P.OrgMemberCount };
  };
  '/api/v1/organizations/{org_id}/members/{user_id}': {
    patch: { params: { org_id: string; user_id: string }; body: P.OrgMemberUpdate; answer: P.OrgMemberResponse };
    delete: { params: { org_id: string; user_id: string }; answer: P.EditResponse };
  };
  '/api/v1/plugin-directory/featured': {
    get: { answer: P.DirectoryPluginList };
  };
  '/api/v1/plugin-directory/plugins': {
    get: { query?: { q?: string; tag?: string; featured?: boolean }; answer: P.DirectoryPluginList };
  };
  '/api/v1/plugin-directory/plugins/{plugin_id}': {
    get: { params: { plugin_id: string }; answer: P.DirectoryPlugin };
  };
  '/api/v1/plugin-directory/plugins/{plugin_id}/config': {
    get: { params: { plugin_id: string }; answer: P.DirectoryPluginConfig };
  };
  '/api/v1/plugin-directory/refresh': {
    post: { answer: P.DirectoryPluginList };
  };
  '/api/v1/plugin-trust': {
    get: { answer: P.PluginTrustList };
    post: { body: P.PluginTrustSource; answer: P.PluginTrust };
  };
  '/api/v1/plugin-trust/{trust_id}': {
    delete: { params: { trust_id: string }; answer: P.EditResponse };
  };
  '/api/v1/sandbox-specs': {
    get: { query: { id: string[] }; answer: (P.SandboxSpecInfo | null)[] };
  };
  '/api/v1/sandbox-specs/search': {
    get: { query?: { page_id?: string; limit?: number }; answer: P.SandboxSpecPage };
  };
  '/api/v1/sandboxes': {
    get: { query: { id: string[] }; answer: (P.SandboxInfo | null)[] };
    post: { query?: { sandbox_spec_id?: string }; body: P.SandboxStartRequest | null; answer: P.SandboxInfo };
  };
  '/api/v1/sandboxes/search': {
    get: { query?: { page_id?: string; limit?: number }; answer: P.SandboxPage };
  };
  '/api/v1/sandboxes/{sandbox_id}': {
    delete: { params: { sandbox_id: string }; query?: { sandbox_id?: string }; answer: P.SuccessResponse };
  };
  '/api/v1/sandboxes/{sandbox_id}/pause': {
    post: { params: { sandbox_id: string }; answer: P.SuccessResponse };
  };
  '/api/v1/sandboxes/{sandbox_id}/resume': {
    post: { params: { sandbox_id: string }; answer: P.SuccessResponse };
  };
  '/api/v1/sandboxes/{sandbox_id}/settings/secrets': {
    get: { params: { sandbox_id: string }; answer: { secrets: { name: string; description: string | null }[] } };
  };
  '/api/v1/sandboxes/{sandbox_id}/settings/secrets/{name}': {
    get: { params: { sandbox_id: string; name: string }; answer: string };
  };
  '/api/v1/secrets': {
    post: { body: P.CustomSecretCreate; answer: P.CustomSecretWithoutValue };
  };
  '/api/v1/secrets/git-providers': {
    post: { body: P.POSTProviderModel; answer: P.EditResponse };
    delete: { answer: P.EditResponse };
  };
  '/api/v1/secrets/search': {
    get: { query?: { name__contains?: string; page_id?: string; limit?: number }; answer: P.CustomSecretPage };
  };
  '/api/v1/secrets/{secret_id}': {
    put: { params: { secret_id: string }; body: P.CustomSecretUpdate; answer: P.CustomSecretWithoutValue };
    delete: { params: { secret_id: string }; answer: P.EditResponse };
  };
  '/api/v1/settings': {
    get: { answer: P.Settings };
    post: { body: P.SettingsUpdate; answer: P.EditResponse };
  };
  '/api/v1/settings/agent-schema': {
    get: { answer: Record<string, unknown> };
  };
  '/api/v1/settings/conversation-schema': {
    get: { answer: Record<string, unknown> };
  };
  '/api/v1/settings/llm/check': {
    post: { body: P.LLMCheckRequest | null; answer: P.LLMCheckResult };
  };
  '/api/v1/settings/profiles': {
    get: { answer: P.ProfileListResponse };
  };
  '/api/v1/settings/profiles/{name}': {
    get: { params: { name: string }; answer: P.ProfileDetailResponse };
    post: {
      params: { name: string };
      body: WithDefaults<P.SaveProfileRequest | null, 'include_secrets' | 'preserve_existing_api_key'>;
      answer: P.ProfileMutationResponse;
    };
    delete: { params: { name: string }; answer: P.ProfileMutationResponse };
  };
  '/api/v1/settings/profiles/{name}/activate': {
    post: { params: { name: string }; answer: P.ActivateProfileResponse };
  };
  '/api/v1/settings/profiles/{name}/rename': {
    post: { params: { name: string }; body: P.RenameProfileRequest; answer: P.ProfileMutationResponse };
  };
  '/api/v1/skills-and-plugins': {
    get: { query?: { org_id?: string }; answer: P.SkillsTable };
  };
  '/api/v1/skills/marketplace-skills': {
    post: {
      body: P.MarketplacePreviewRequest | P.MarketplaceRegistration[];
      answer:
        | P.MarketplacePreview
        | {
            skills: { name: string; plugin: string; marketplace: string }[];
            plugins: Record<string, unknown>[];
            marketplace_skills: Record<string, Record<string, unknown>[]>;
            errors: string[];
          };
    };
  };
  '/api/v1/skills/search': {
    get: { query?: { page_id?: string; limit?: number }; answer: P.SkillPage };
  };
  '/api/v1/users/git-info': {
    get: { answer: P.UserGitInfo };
  };
  '/api/v1/users/git-organizations': {
    get: { answer: P.GitOrganizationsResponse };
  };
  '/api/v1/users/me': {
    get: { answer: P.UserInfo };
  };
  '/api/v1/web-client/config': {
    get: { answer: P.WebClientConfig };
  };
  '/api/v1/webhooks/conversations': {
    post: {
      body: {
        id: string;
        title?: string | null;
        execution_status?: string;
        agent?: { llm?: { model?: string } };
        metrics?: Record<string, unknown> | null;
        updated_at?: string;
      };
      answer: P.SuccessResponse;
    };
  };
  '/api/v1/webhooks/events/{conversation_id}': {
    post: {
      params: { conversation_id: string };
      body: WithDefaults<
        P.Event[],
        | 'activated_skills'
        | 'cache_prompt'
        | 'command'
        | 'content'
        | 'data'
        | 'destructiveHint'
        | 'dir_path'
        | 'direction'
        | 'entries'
        | 'exit_code'
        | 'expected_replacements'
        | 'extended_content'
        | 'extract_links'
        | 'file_content'
        | 'forgotten_event_ids'
        | 'idempotentHint'
        | 'include_screenshot'
        | 'is_error'
        | 'is_input'
        | 'is_new_file'
        | 'is_truncated'
        | 'metadata'
        | 'model_name'
        | 'new_tab'
        | 'notes'
        | 'openWorldHint'
        | 'pid'
        | 'prefix'
        | 'prev_exist'
        | 'readOnlyHint'
        | 'recursive'
        | 'rejection_reason'
        | 'rejection_source'
        | 'replacements_made'
        | 'reset'
        | 'security_risk'
        | 'source'
        | 'start_from_char'
        | 'status'
        | 'suffix'
        | 'summary'
        | 'task_list'
        | 'thinking_blocks'
        | 'timeout'
        | 'total_count'
        | 'truncated'
        | 'type'
        | 'usage_id'
      >;
      answer: P.SuccessResponse;
    };
  };
  '/health': {
    get: { answer: { status: string } };
  };
  '/ready': {
    get: {
      answer: {
        status: 'ready' | 'unavailable';
        message?: string;
        checks: Record<string, 'ok' | 'failing'>;
        sandboxes?: { backend: string; isolated: boolean };
      };
    };
  };
  '/server_info': {
    get: {
      answer: {
        title: string;
        version: string;
        uptime: number;
        node_version: string;
        docs: string;
        license: {
          status: 'valid' | 'expired' | 'invalid' | 'none';
          reason?: string;
          warning?: string;
          issuer?: string;
          seats?: number;
          seats_used?: number;
          not_before?: string;
          expires_at?: string;
          features?: string[];
        };
      };
    };
  };
}
