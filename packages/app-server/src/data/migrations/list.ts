import { identity } from './0001-identity.ts';
import { settingsAndSecrets } from './0002-settings-and-secrets.ts';
import { conversations } from './0003-conversations.ts';
import { sandboxes } from './0004-sandboxes.ts';
import { appConversations } from './0005-app-conversations.ts';
import { events } from './0006-events.ts';
import { pendingMessages } from './0007-pending-messages.ts';
import { marketplaces } from './0008-marketplaces.ts';
import { pluginTrust } from './0009-plugin-trust.ts';
import { sandboxRuntimeIds } from './0010-sandbox-runtime-ids.ts';
import { llmProfiles } from './0011-llm-profiles.ts';
import { startTaskTakeover } from './0012-start-task-takeover.ts';
import { conversationModelOrder } from './0013-conversation-model-order.ts';
import { oidcIdentities } from './0014-oidc-identities.ts';
import { providerTokenSource } from './0015-provider-token-source.ts';
import { conversationPublic } from './0016-conversation-public.ts';
import { providerTokenRenewal } from './0017-provider-token-renewal.ts';
import { conversationTrigger } from './0019-conversation-trigger.ts';
import { conversationSkillRepositories } from './0020-conversation-skill-repositories.ts';
import { gitAppInstallationEvents } from './0021-git-app-installation-events.ts';
import type { SchemaMigration } from './migration.ts';

/** Every schema step, in order: listed here (not read from a folder) so the bundled server carries them. */
export const MIGRATIONS: readonly SchemaMigration[] = [
  identity,
  settingsAndSecrets,
  conversations,
  sandboxes,
  appConversations,
  events,
  pendingMessages,
  marketplaces,
  pluginTrust,
  sandboxRuntimeIds,
  llmProfiles,
  startTaskTakeover,
  conversationModelOrder,
  oidcIdentities,
  providerTokenSource,
  conversationPublic,
  providerTokenRenewal,
  conversationTrigger,
  conversationSkillRepositories,
  gitAppInstallationEvents,
];
