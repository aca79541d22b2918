import type { IdentityStore } from '../identity/identity-store.ts';
import type { RateLimiter, RateLimits } from '../identity/rate-limits.ts';
import type { OrganizationsStore } from '../organizations/organizations-store.ts';
import type { SecretsStore } from '../secrets/secrets-store.ts';
import type { LlmDefaults } from '../settings/llm-defaults.ts';
import type { SettingsStore } from '../settings/settings-store.ts';

/** What the identity, settings, secrets and organization routes need. */
export interface IdentityRouteDeps {
  identity: IdentityStore;
  settings: SettingsStore;
  secrets: SecretsStore;
  organizations: OrganizationsStore;
  llmDefaults: LlmDefaults;
  rateLimiter: RateLimiter;
  rateLimits: RateLimits;
  /** Whether the server is reached over HTTPS (the session cookie is then `Secure`). */
  secureCookies: boolean;
}
