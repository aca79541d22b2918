import { type Static, type TBoolean, Type } from '@sinclair/typebox';
import { ConversationExecutionStatus, sendMessageFields } from '../api/conversation.ts';
import { MetricsSnapshot } from '../api/metrics.ts';
import { ResolvedPlugin } from '../api/plugins.ts';
import { nullable, ref, strictObject, stringEnum } from '../schema/builders.ts';
import { ProviderType, pageOf, timestamp, timestamps } from './common.ts';
import { ConversationTrigger } from './conversation-start.ts';
import { LoadedMarketplace } from './marketplaces.ts';
import { SandboxStatus } from './sandboxes.ts';

// Conversations through the application once started (their start: conversation-start.ts), their messages, and
// the web client's configuration.

export const AppConversation = strictObject(
  'AppConversation',
  'A conversation of the application, with its sandbox’s live status.',
  {
    id: Type.String({ format: 'uuid' }),
    created_by_user_id: nullable(Type.String()),
    sandbox_id: nullable(Type.String()),
    selected_repository: nullable(Type.String()),
    selected_branch: nullable(Type.String()),
    git_provider: nullable(ref(ProviderType)),
    title: nullable(Type.String()),
    trigger: nullable(ref(ConversationTrigger, { description: 'What started it, as the start request said.' })),
    pr_number: Type.Array(Type.Integer()),
    llm_model: nullable(Type.String()),
    agent_kind: Type.String({ description: 'Always `openhands` (the agent server’s agent).' }),
    metrics: nullable(ref(MetricsSnapshot)),
    parent_conversation_id: Type.Null(),
    sub_conversation_ids: Type.Array(Type.String()),
    public: nullable(
      Type.Boolean({
        description: 'Anyone with its id may read it (`/api/shared-conversations`, `/api/shared-events`).',
      }),
    ),
    tags: Type.Record(Type.String(), Type.String()),
    ...timestamps(),
    sandbox_status: ref(SandboxStatus, { description: 'MISSING when the sandbox no longer exists.' }),
    sandbox_status_detail: nullable(Type.String({ description: 'Bosun: why the sandbox is in its status.' })),
    execution_status: nullable(ref(ConversationExecutionStatus), {
      description: 'The agent’s status as last reported (null until reported, and while the sandbox is not RUNNING).',
    }),
    conversation_url: nullable(Type.String({ description: 'The conversation on its agent server, while it runs.' })),
    session_api_key: nullable(
      Type.String({ description: 'The agent server’s key (`X-Session-API-Key`), while it runs.' }),
    ),
    acp_server: Type.Null(),
    launched_agent_profile: Type.Null(),
    loaded_marketplaces: Type.Array(ref(LoadedMarketplace), {
      description: 'Bosun: the auto-loaded marketplaces it started with, each at its commit (or why not loaded).',
    }),
    loaded_plugins: Type.Array(ref(ResolvedPlugin), {
      description: 'Bosun: the plugins its agent server loaded at the start, each at its commit, with problems.',
    }),
  },
);
export type AppConversation = Static<typeof AppConversation>;

export const AppConversationPage = pageOf(
  'AppConversationPage',
  'A page of conversations, newest first.',
  AppConversation,
);
export type AppConversationPage = Static<typeof AppConversationPage>;

export const AppConversationUpdateRequest = strictObject(
  'AppConversationUpdateRequest',
  'Change a conversation (the title is also sent to its agent server while it runs).',
  {
    title: Type.Optional(nullable(Type.String({ minLength: 1, maxLength: 200 }))),
    public: Type.Optional(
      nullable(Type.Boolean({ description: 'Share it read-only with anyone who has its id (null: unchanged).' })),
    ),
    selected_repository: Type.Optional(nullable(Type.String({ maxLength: 512 }))),
    selected_branch: Type.Optional(nullable(Type.String({ maxLength: 255 }))),
    git_provider: Type.Optional(nullable(ref(ProviderType))),
  },
);
export type AppConversationUpdateRequest = Static<typeof AppConversationUpdateRequest>;

export const AppSendMessageRequest = strictObject(
  'AppSendMessageRequest',
  'A message to a conversation.',
  sendMessageFields('Run the agent after the message (default true).', true),
);
export type AppSendMessageRequest = Static<typeof AppSendMessageRequest>;

export const AppSendMessageResponse = strictObject('AppSendMessageResponse', 'The message reached the agent.', {
  success: Type.Boolean(),
  sandbox_status: ref(SandboxStatus),
  message: nullable(Type.String()),
});
export type AppSendMessageResponse = Static<typeof AppSendMessageResponse>;

const FEATURE_FLAGS = [
  'enable_billing',
  'hide_llm_settings',
  'enable_jira',
  'enable_jira_dc',
  'enable_linear',
  'hide_users_page',
  'hide_billing_page',
  'hide_integrations_page',
  'hide_personal_workspaces',
  'allow_user_llm_configuration',
  'enable_acp',
  'enable_onboarding',
  'enable_automations',
  'enable_agent_canvas_banner',
] as const;

export const WebClientFeatureFlags = strictObject('WebClientFeatureFlags', 'What the web client shows.', {
  deployment_mode: nullable(stringEnum(['cloud', 'self_hosted'])),
  ...(Object.fromEntries(FEATURE_FLAGS.map((name) => [name, Type.Boolean()])) as Record<
    (typeof FEATURE_FLAGS)[number],
    TBoolean
  >),
});

export const WebClientConfig = strictObject(
  'WebClientConfig',
  'What the web client needs before sign-in (no secret).',
  {
    app_mode: stringEnum(['oss', 'saas']),
    posthog_client_key: Type.Null(),
    feature_flags: ref(WebClientFeatureFlags),
    providers_configured: Type.Array(ref(ProviderType)),
    provider_default_hosts: Type.Record(Type.String(), Type.String()),
    maintenance_start_time: Type.Null(),
    auth_url: nullable(
      Type.String({ description: 'Where to sign in (the OpenID Connect login route); null: no issuer is configured.' }),
    ),
    recaptcha_site_key: Type.Null(),
    faulty_models: Type.Array(Type.String()),
    error_message: Type.Null(),
    updated_at: timestamp(),
    github_app_slug: Type.Null(),
    gitlab_enabled: Type.Boolean(),
    slack_enabled: Type.Boolean(),
    email_enabled: Type.Boolean(),
    email_change_enabled: Type.Boolean(),
    acp_providers: Type.Array(Type.String()),
    kind: Type.Literal('WebClientConfig'),
  },
);
export type WebClientConfig = Static<typeof WebClientConfig>;
