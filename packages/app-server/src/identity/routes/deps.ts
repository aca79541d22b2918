import type { Repositories } from '../../data/index.ts';
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

/** What the identity routes need, and the settings, secrets, organization and Git provider token routes with them. */
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
  rateLimiter: RateLimiter;
  rateLimits: RateLimits;
  /** Whether the server is reached over HTTPS (the session cookie is then `Secure`). */
  secureCookies: boolean;
  /** Whether the server listens on loopback only (its users are on this machine: the LLM check may call internal addresses). */
  serverOnLoopback: boolean;
  /** Sign-in through the configured OpenID Connect issuer (absent: none is configured). */
  oidc?: OidcLogin;
}
