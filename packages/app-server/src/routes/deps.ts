import type { RateLimiter, RateLimits } from '../identity/rate-limits.ts';
import type { ApiKeysStore, OrganizationsStore, SessionsStore, UsersStore } from '../identity/stores.ts';
import type { ProviderTokensStore, SecretsStore } from '../secrets/secrets-store.ts';
import type { LlmDefaults } from '../settings/llm-defaults.ts';
import type { SettingsStore } from '../settings/settings-store.ts';

/** What the identity, settings, secrets and organization routes need. */
export interface IdentityRouteDeps {
  users: UsersStore;
  apiKeys: ApiKeysStore;
  sessions: SessionsStore;
  organizations: OrganizationsStore;
  settings: SettingsStore;
  secrets: SecretsStore;
  providerTokens: ProviderTokensStore;
  llmDefaults: LlmDefaults;
  rateLimiter: RateLimiter;
  rateLimits: RateLimits;
  /** Whether the server is reached over HTTPS (the session cookie is then `Secure`). */
  secureCookies: boolean;
}
