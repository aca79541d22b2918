/**
 * The app server's tables as Kysely sees them. Ids are UUID text, timestamps ISO-8601 UTC text
 * (`2026-01-02T03:04:05.678Z`: the same on SQLite and PostgreSQL, and ordered as text), sealed values text.
 */

import type { Generated } from 'kysely';

export type Role = 'owner' | 'admin' | 'member';
export const ROLES: readonly Role[] = ['owner', 'admin', 'member'];

export interface UsersTable {
  id: string;
  email: string | null;
  name: string | null;
  created_at: string;
}

/** At most one row: the user who owns an embedded install (created on first start). */
export interface InstanceOwnerTable {
  singleton: number;
  user_id: string;
}

export interface OrganizationsTable {
  id: string;
  name: string;
  created_at: string;
}

export interface MembershipsTable {
  org_id: string;
  user_id: string;
  role: Role;
  created_at: string;
}

export interface ApiKeysTable {
  id: string;
  user_id: string;
  org_id: string | null;
  name: string;
  key_hash: string;
  display_prefix: string;
  created_at: string;
  expires_at: string | null;
}

export interface SessionsTable {
  id: string;
  user_id: string;
  token_hash: string;
  created_at: string;
  expires_at: string;
}

export interface SignInTokensTable {
  token_hash: string;
  user_id: string;
  created_at: string;
  expires_at: string;
}

/** Columns of a table whose values are sealed: `key_id` names the key that sealed them (indexed, for rotation). */
export interface SealedColumns {
  key_id: string;
  sealed: string;
}

export interface UserSettingsTable extends SealedColumns {
  user_id: string;
  updated_at: string;
}

export interface CustomSecretsTable extends SealedColumns {
  id: string;
  user_id: string;
  name: string;
  description: string | null;
  created_at: string;
  updated_at: string;
}

export interface ProviderTokensTable extends SealedColumns {
  user_id: string;
  provider: string;
  host: string | null;
  /** Null: stored by hand; else the sign-in that brought it (migration 0015). */
  source: string | null;
  /** The refresh token a sign-in brought, sealed (bound as `<binding>:refresh`); null: none (migration 0017). */
  refresh_sealed: string | null;
  /** When the token, and its refresh token, expire (ISO); null: never, or not said. */
  expires_at: string | null;
  refresh_expires_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface AppConversationsTable {
  id: string;
  user_id: string;
  org_id: string | null;
  sandbox_id: string | null;
  title: string | null;
  created_at: string;
  updated_at: string;
  selected_repository: string | null;
  selected_branch: string | null;
  git_provider: string | null;
  llm_model: string | null;
  /** The agent server's time (`updated_at`) of what set `llm_model`: an older report leaves it (see 0013). */
  llm_model_at: string | null;
  execution_status: string | null;
  /** The last MetricsSnapshot reported, as JSON. */
  metrics: string | null;
  /** The auto-loaded marketplaces it started with (LoadedMarketplace[] as JSON); null: none recorded. */
  loaded_marketplaces: string | null;
  /** The plugins its agent server loaded at the start (ResolvedPlugin[] as JSON); null: none recorded. */
  loaded_plugins: string | null;
  /** 1: its owner shared it read-only with anyone who has its id (see 0016); 0: only they read it. */
  is_public: Generated<number>;
  /** What started it, as its start request said (see 0019); null: not said. */
  conversation_trigger: string | null;
  /** The pull requests it works on (number[] as JSON, see 0019); null: none. */
  pr_number: string | null;
  /** The organization and user skills repositories its start looked for (see 0020); null: none recorded. */
  skill_repositories: string | null;
}

/** A start of a conversation: its request as JSON with the secrets masked, its problems as a JSON list. */
export interface StartTasksTable {
  id: string;
  user_id: string;
  status: string;
  detail: string | null;
  app_conversation_id: string | null;
  sandbox_id: string | null;
  agent_server_url: string | null;
  request: string;
  problems: string;
  created_at: string;
  updated_at: string;
  /** The id the conversation gets, fixed when the task is created (null: a task older than 0012). */
  conversation_id: string | null;
  /** The run that holds the task: each takeover gives it a new one (see src/conversations/task-takeover.ts). */
  runner: string | null;
  takeovers: number;
  /** The full start request, sealed, while the task runs (null once READY or ERROR). */
  key_id: string | null;
  sealed: string | null;
}

export interface SandboxesTable {
  id: string;
  user_id: string;
  spec_id: string;
  status: string;
  status_detail: string | null;
  session_api_key_hash: string | null;
  /** The runtime's id of it, once the runtime has started it. */
  runtime_id: string | null;
  created_at: string;
  started_at: string | null;
  updated_at: string;
}

/** One event of an app conversation: `json` as its agent server sent it, `seq` its place (1, 2, ...). */
export interface AppEventsTable {
  conversation_id: string;
  seq: number;
  user_id: string;
  event_id: string;
  kind: string;
  /** ISO-8601 UTC with `Z`, normalized from the event's own. */
  timestamp: string;
  source: string;
  json: string;
}

/** A message queued for a conversation not running yet (its start task's, or the conversation's own). */
export interface PendingMessagesTable {
  id: string;
  user_id: string;
  task_id: string | null;
  conversation_id: string | null;
  seq: number;
  role: string;
  /** The content items as JSON. */
  content: string;
  created_at: string;
  /** When it was last posted to the agent server (which may have taken it without the app learning so). */
  attempted_at: string | null;
  delivered_at: string | null;
}

/** A plugin source (at a commit) a user confirmed trust in. */
export interface PluginTrustTable {
  id: string;
  user_id: string;
  source: string;
  /** '' : any commit. */
  commit_sha: string;
  confirmed_at: string;
}

/** A marketplace registered by an organization or a user (`owner_key`: `org:<id>` or `user:<id>`). */
export interface MarketplacesTable {
  id: string;
  scope: 'organization' | 'personal';
  owner_key: string;
  user_id: string | null;
  org_id: string | null;
  name: string;
  source: string;
  ref: string | null;
  repo_path: string | null;
  /** 1 or 0. */
  auto_load: number;
  /** `follow` the ref, or `review` updates: Auto-Load uses `approved_ref` until another commit is approved. */
  updates: 'follow' | 'review';
  approved_ref: string | null;
  registered_by: string;
  registered_at: string;
  updated_at: string;
}

/** The version of an organization's marketplaces, raised by each write (a write naming an older one is refused). */
export interface MarketplaceVersionsTable {
  org_id: string;
  version: number;
}

/** A user's LLM profile: its secrets (the API key) sealed, bound to the row's id. */
export interface LlmProfilesTable extends SealedColumns {
  id: string;
  user_id: string;
  name: string;
  model: string;
  base_url: string | null;
  /** 1 on the profile the user's settings took their LLM from (at most one per user), else 0. */
  active: number;
  created_at: string;
  updated_at: string;
}

/** A user's account at an OpenID Connect issuer: (issuer, subject) is unique. */
export interface OidcIdentitiesTable {
  id: string;
  user_id: string;
  issuer: string;
  subject: string;
  created_at: string;
}

/** An event of the GitHub App's installations its webhook delivered (lists: JSON arrays of `owner/name`). */
export interface GitAppInstallationEventsTable {
  id: string;
  delivery_id: string;
  event: string;
  action: string;
  installation_id: string;
  account: string | null;
  repositories_added: string;
  repositories_removed: string;
  received_at: string;
}

export interface Tables {
  users: UsersTable;
  instance_owner: InstanceOwnerTable;
  organizations: OrganizationsTable;
  memberships: MembershipsTable;
  api_keys: ApiKeysTable;
  sessions: SessionsTable;
  sign_in_tokens: SignInTokensTable;
  user_settings: UserSettingsTable;
  custom_secrets: CustomSecretsTable;
  provider_tokens: ProviderTokensTable;
  app_conversations: AppConversationsTable;
  sandboxes: SandboxesTable;
  app_conversation_start_tasks: StartTasksTable;
  app_events: AppEventsTable;
  app_pending_messages: PendingMessagesTable;
  plugin_trust: PluginTrustTable;
  marketplaces: MarketplacesTable;
  marketplace_versions: MarketplaceVersionsTable;
  llm_profiles: LlmProfilesTable;
  oidc_identities: OidcIdentitiesTable;
  git_app_installation_events: GitAppInstallationEventsTable;
}

/** The tables whose rows hold sealed values. */
export type SealedTable =
  | 'user_settings'
  | 'custom_secrets'
  | 'provider_tokens'
  | 'llm_profiles'
  | 'app_conversation_start_tasks';
