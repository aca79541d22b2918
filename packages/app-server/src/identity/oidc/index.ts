import type { AppServerConfig } from '../../config.ts';
import type { AccountStores } from './accounts.ts';
import { type IssuerLog, OidcIssuer } from './issuer.ts';
import { LOGIN_PATH, OidcLogin, type OidcLoginDeps } from './login.ts';
import type { SignInTokenStore } from './sign-in-git-token.ts';

export { clearedIdTokenCookie } from './id-token-cookie.ts';
export { CALLBACK_PATH, LOGIN_PATH, type LoginMethod, OidcLogin } from './login.ts';
export { clearedPendingLoginCookie, pendingLoginCookieName } from './pending-login.ts';
export { sameOriginPath } from './return-to.ts';

export type OidcSettings = Partial<
  Pick<
    AppServerConfig,
    | 'oidc_issuer_url'
    | 'oidc_client_id'
    | 'oidc_client_secret'
    | 'oidc_scopes'
    | 'oidc_providers'
    | 'oidc_git_providers'
  >
>;

/**
 * Sign-in through the configured OpenID Connect issuer, its discovery started now (retried at each login while the
 * issuer does not answer); undefined when no issuer is configured.
 */
export function oidcLoginOf(
  config: OidcSettings,
  deps: Omit<OidcLoginDeps, 'issuer' | 'scopes' | 'providers' | 'accounts' | 'gitProviders' | 'gitTokens'> & {
    /** The users, their issuer accounts and their Git provider tokens (a sign-in may bring one). */
    accounts: AccountStores & { providerTokens: SignInTokenStore };
    log?: IssuerLog;
  },
): OidcLogin | undefined {
  const { oidc_issuer_url: issuerUrl, oidc_client_id: clientId, oidc_client_secret: clientSecret } = config;
  if (issuerUrl === undefined || clientId === undefined) return undefined;
  const { log, ...rest } = deps;
  const issuer = new OidcIssuer({ issuerUrl, clientId, ...(clientSecret ? { clientSecret } : {}) }, log);
  issuer.warmUp();
  return new OidcLogin({
    ...rest,
    issuer,
    scopes: config.oidc_scopes ?? 'openid email profile',
    providers: config.oidc_providers ?? [],
    gitProviders: config.oidc_git_providers ?? [],
    gitTokens: deps.accounts.providerTokens,
  });
}

/** The login route's URL when an issuer is configured (the web client's `auth_url`), else null. */
export function loginUrlOf(config: OidcSettings, publicUrl: () => string): () => string | null {
  return () => (config.oidc_issuer_url === undefined ? null : `${publicUrl()}${LOGIN_PATH}`);
}
