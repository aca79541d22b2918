export { type AppDatabase, type OpenDatabaseOptions, openDatabase } from './database.ts';
export {
  AlreadyMemberError,
  DataConflictError,
  DatabaseMissingError,
  DatabaseOpenError,
  EmailTakenError,
  InvalidPageIdError,
  LastOwnerError,
  MarketplaceNameTakenError,
  SchemaTooNewError,
  SecretNameTakenError,
  SecretsKeyError,
  StaleMarketplacesError,
} from './errors.ts';
export { GENERATED_KEY_FILE, type KeyRingOptions, deriveFromJwtSecret, loadKeyRing } from './key-ring.ts';
export type { JsonObject } from './merge-patch.ts';
export { type Dialect, SchemaBehindError } from './migrations/index.ts';
export { type SchemaStepReport, migrateAppSchema } from './schema-step.ts';
export type { Page } from './pages.ts';
export { KeyRing, keyIdOf, newSecretsKey } from './secret-cipher.ts';
export { seedForBenchmark } from './seed.ts';
export { SQLITE_FILE } from './sqlite.ts';
export { ROLES, type Role, type Tables } from './tables.ts';
export { type Repositories, createRepositories } from './repositories/index.ts';
export { API_KEY_PREFIX, type ApiKeyIdentity, type ApiKeyRecord, type NewApiKey } from './repositories/api-keys.ts';
export type {
  ConversationOfSandbox,
  EventFilter,
  EventPageRequest,
  EventsRepository,
  IncomingEvent,
  StoredEventRow,
} from './repositories/events.ts';
export type {
  AppConversation,
  AppConversationChange,
  ConversationFilters,
  NewAppConversation,
} from './repositories/conversations.ts';
export type {
  StartTaskChange,
  StartTaskFilters,
  StartTaskOrder,
  StartTaskRecord,
} from './repositories/start-tasks.ts';
export type {
  NewPendingMessage,
  PendingMessageRecord,
  PendingTarget,
} from './repositories/pending-messages.ts';
export {
  type LlmProfile,
  type LlmProfileConfig,
  type LlmProfileInfo,
  type LlmProfileSave,
  LlmProfileChangedError,
  LlmProfileLimitError,
  LlmProfileNameTakenError,
  MAX_LLM_PROFILES,
} from './repositories/llm-profiles.ts';
export type { OidcAccount } from './repositories/oidc-identities.ts';
export type { GitAppInstallationEvent, NewGitAppInstallationEvent } from './repositories/git-app-events.ts';
export type { OrgDeletionOutcome, OrgDeletionRecord } from './repositories/organization-deletion.ts';
export type { PluginTrustRecord } from './repositories/plugin-trust.ts';
export type { Member, Organization, OrganizationOfUser } from './repositories/organizations.ts';
export type { ProviderToken, ProviderTokenInfo } from './repositories/provider-tokens.ts';
export type { NewSandbox, SandboxChange, SandboxRecord } from './repositories/sandboxes.ts';
export type { SecretInfo, SecretSearch } from './repositories/secrets.ts';
export type { Session, SessionIdentity } from './repositories/sessions.ts';
export type { TransactionWrite } from './repositories/settings.ts';
export type { InstanceOwner, NewUser, User } from './repositories/users.ts';
export {
  type ExpectedVersion,
  type MarketplaceChange,
  type MarketplaceOwner,
  type MarketplaceRow,
  type NewMarketplace,
  type PersonalListChange,
  ownerKeyOf,
} from './repositories/marketplaces.ts';
