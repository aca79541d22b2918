import type { AppDatabase } from '../database.ts';
import type { KeyRing } from '../secret-cipher.ts';
import { ApiKeysRepository } from './api-keys.ts';
import { ConversationsRepository } from './conversations.ts';
import { EventsRepository } from './events.ts';
import { GitAppEventsRepository } from './git-app-events.ts';
import { LlmProfilesRepository } from './llm-profiles.ts';
import { MarketplacesRepository } from './marketplaces.ts';
import { OidcIdentitiesRepository } from './oidc-identities.ts';
import { OrganizationsRepository } from './organizations.ts';
import { PendingMessagesRepository } from './pending-messages.ts';
import { PluginTrustRepository } from './plugin-trust.ts';
import { ProviderTokensRepository } from './provider-tokens.ts';
import { SandboxesRepository } from './sandboxes.ts';
import { SecretsRepository } from './secrets.ts';
import { SessionsRepository } from './sessions.ts';
import { SettingsRepository } from './settings.ts';
import { StartTasksRepository } from './start-tasks.ts';
import { UsersRepository } from './users.ts';

export interface Repositories {
  users: UsersRepository;
  organizations: OrganizationsRepository;
  apiKeys: ApiKeysRepository;
  sessions: SessionsRepository;
  settings: SettingsRepository;
  secrets: SecretsRepository;
  providerTokens: ProviderTokensRepository;
  conversations: ConversationsRepository;
  sandboxes: SandboxesRepository;
  events: EventsRepository;
  startTasks: StartTasksRepository;
  pendingMessages: PendingMessagesRepository;
  pluginTrust: PluginTrustRepository;
  marketplaces: MarketplacesRepository;
  llmProfiles: LlmProfilesRepository;
  oidcIdentities: OidcIdentitiesRepository;
  gitAppEvents: GitAppEventsRepository;
}

/** Every repository over one open database; sealed values use `keyRing`. */
export function createRepositories(database: AppDatabase, keyRing: KeyRing): Repositories {
  const { db, dialect } = database;
  return {
    users: new UsersRepository(db),
    organizations: new OrganizationsRepository(db, dialect),
    apiKeys: new ApiKeysRepository(db),
    sessions: new SessionsRepository(db),
    settings: new SettingsRepository(db, dialect, keyRing),
    secrets: new SecretsRepository(db, keyRing),
    providerTokens: new ProviderTokensRepository(db, keyRing),
    conversations: new ConversationsRepository(db),
    sandboxes: new SandboxesRepository(db),
    events: new EventsRepository(db, dialect),
    startTasks: new StartTasksRepository(db, keyRing),
    pendingMessages: new PendingMessagesRepository(db),
    pluginTrust: new PluginTrustRepository(db),
    marketplaces: new MarketplacesRepository(db),
    llmProfiles: new LlmProfilesRepository(db, dialect, keyRing),
    oidcIdentities: new OidcIdentitiesRepository(db),
    gitAppEvents: new GitAppEventsRepository(db),
  };
}
