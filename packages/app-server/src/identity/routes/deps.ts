import type { Repositories } from '../../data/index.ts';
import type { PersonalMarketplaces } from '../../marketplaces/index.ts';
import type { LlmDefaults } from '../../settings/llm-defaults.ts';
import type { OidcLogin } from '../oidc/index.ts';
import type { RateLimiter, RateLimits } from '../rate-limits.ts';
import type {
  ApiKeysStore,
  OrganizationsStore,
  ProviderTokensStore,
  SecretsStore,
  SessionsStore,
  SettingsStore,
  UsersStore,
} from '../stores.ts';

/** What the identity, settings, secrets and organization routes need. */
export interface IdentityRouteDeps {
  users: UsersStore;
  apiKeys: ApiKeysStore;
  sessions: SessionsStore;
  organizations: OrganizationsStore;
  settings: SettingsStore;
  secrets: SecretsStore;
  providerTokens: ProviderTokensStore;
  /** The users' LLM profiles, as the settings show them (and end the active one's hold on them). */
  llmProfiles: Pick<Repositories['llmProfiles'], 'list' | 'keepActiveIf'>;
  llmDefaults: LlmDefaults;
  rateLimiter: RateLimiter;
  rateLimits: RateLimits;
  /** Whether the server is reached over HTTPS (the session cookie is then `Secure`). */
  secureCookies: boolean;
  /** Whether the server listens on loopback only (its users are on this machine: the LLM check may call internal addresses). */
  serverOnLoopback: boolean;
  /** The users' own marketplaces as the settings carry them (absent: a server without marketplaces). */
  marketplaces?: PersonalMarketplaces;
  /** Sign-in through the configured OpenID Connect issuer (absent: none is configured). */
  oidc?: OidcLogin;
}
