import { HttpError } from '@bosun/http';
import * as client from 'openid-client';
import type { Cache } from '../../cache/index.ts';
import { gitProviderOfAlias } from '../../config/sign-in-git-providers.ts';
import type { KeyRing, User } from '../../data/index.ts';
import { cookieValue } from '../credentials.ts';
import { type AccountStores, type IssuerClaims, userOfAccount } from './accounts.ts';
import { idTokenCookie, idTokenOf } from './id-token-cookie.ts';
import type { OidcIssuer } from './issuer.ts';
import { loginError } from './login-errors.ts';
import {
  PENDING_LOGIN_TTL_MS,
  type PendingLogin,
  clearedPendingLoginCookie,
  openPendingLogin,
  pendingLoginCookie,
  pendingLoginCookieName,
  pendingLoginsToEnd,
} from './pending-login.ts';
import { sameOriginPath } from './return-to.ts';
import { type SignInLog, type SignInTokenStore, keepSignInGitToken } from './sign-in-git-token.ts';

export const LOGIN_PATH = '/api/v1/auth/login';
export const CALLBACK_PATH = '/api/v1/auth/callback';

/** A way to sign in a web client shows: the issuer itself, or one identity provider behind it. */
export interface LoginMethod {
  id: string;
  name: string;
  login_url: string;
}

export interface OidcLoginDeps {
  issuer: OidcIssuer;
  /** The scopes asked (`openid` among them). */
  scopes: string;
  /** Identity-provider aliases offered as their own login, sent as `kc_idp_hint`. */
  providers: readonly string[];
  keyRing: KeyRing;
  /** Where each login's state is claimed once (shared between replicas when it is Redis). */
  cache: Pick<Cache, 'set'>;
  accounts: AccountStores;
  /** `oidc_git_providers`: the Git provider of each identity provider's sign-ins (config/sign-in-git-providers.ts). */
  gitProviders: readonly string[];
  /** Where the Git token a sign-in brings is stored. */
  gitTokens: SignInTokenStore;
  /** Where browsers reach this server: the callback's redirect URI is under it. */
  publicUrl(): string;
  /** Whether the server is reached over HTTPS (the cookies are then `Secure`). */
  secureCookies: boolean;
}

const PROVIDER_NAMES: Record<string, string> = {
  github: 'GitHub',
  gitlab: 'GitLab',
  bitbucket: 'Bitbucket',
  bitbucket_data_center: 'Bitbucket Data Center',
  azure_devops: 'Azure DevOps',
  google: 'Google',
  microsoft: 'Microsoft',
};

const NO_PENDING_LOGIN =
  'No sign-in is under way in this browser (it expired after 10 minutes, was finished, or its cookie was ' +
  'blocked): sign in again';

/**
 * Sign-in through an OpenID Connect issuer: the authorization code flow with PKCE (S256), `state` and `nonce`, the
 * pending login kept in a sealed cookie of the browser, the ID token validated by openid-client (signature, issuer,
 * audience, nonce), and the account's user found or made (accounts.ts).
 */
export class OidcLogin {
  constructor(private readonly deps: OidcLoginDeps) {}

  get providers(): readonly string[] {
    return this.deps.providers;
  }

  /** The login methods a web client shows: the issuer's own, then one per configured identity provider. */
  methods(): LoginMethod[] {
    const base = `${this.deps.publicUrl()}${LOGIN_PATH}`;
    return [
      { id: 'oidc', name: new URL(this.deps.issuer.settings.issuerUrl).host, login_url: base },
      ...this.deps.providers.map((alias) => ({
        id: alias,
        name: PROVIDER_NAMES[alias] ?? alias,
        login_url: `${base}?provider=${encodeURIComponent(alias)}`,
      })),
    ];
  }

  /**
   * Where to send the browser to sign in, and its `Set-Cookie` lines: the cookie that keeps this login for the
   * callback, and the ends of the browser's stale or oldest logins under way (`cookieHeader`: its `Cookie`).
   */
  async begin(
    options: { provider?: string; returnTo?: string },
    cookieHeader?: string,
  ): Promise<{ location: string; cookies: string[] }> {
    const config = await this.configuration();
    const codeVerifier = client.randomPKCECodeVerifier();
    const login: PendingLogin = {
      state: client.randomState(),
      nonce: client.randomNonce(),
      codeVerifier,
      returnTo: sameOriginPath(options.returnTo),
      expiresAt: Date.now() + PENDING_LOGIN_TTL_MS,
      ...(options.provider ? { provider: options.provider } : {}),
    };
    const location = client.buildAuthorizationUrl(config, {
      redirect_uri: this.redirectUri(),
      scope: this.deps.scopes,
      response_type: 'code',
      code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
      state: login.state,
      nonce: login.nonce,
      ...(options.provider ? { kc_idp_hint: options.provider } : {}),
    });
    const { keyRing, secureCookies } = this.deps;
    const ended = pendingLoginsToEnd(keyRing, cookieHeader).map((name) =>
      clearedPendingLoginCookie(name, secureCookies),
    );
    return { location: location.href, cookies: [...ended, pendingLoginCookie(keyRing, login, secureCookies)] };
  }

  /**
   * Finishes the login of the issuer's answer (`query`) with the browser's cookie of its state (`cookieHeader`: its
   * `Cookie`): the user it signs in and where to go. Each failure is an HttpError: 400 (no such login in this
   * browser, replayed state or code, a token that does not validate), 403 (the issuer or the person refused), 409
   * (an e-mail collision it will not link), 503 (no issuer). A login sent to an identity provider whose sign-ins
   * bring a Git token stores it (sign-in-git-token.ts: its failures only go to `log`).
   */
  async finish(
    query: Record<string, string>,
    cookieHeader: string | undefined,
    log?: SignInLog,
  ): Promise<{ user: User; returnTo: string; idToken: string | undefined }> {
    const cookie = query.state ? cookieValue(cookieHeader, pendingLoginCookieName(query.state)) : undefined;
    const pending = openPendingLogin(this.deps.keyRing, cookie);
    if (!pending || pending.state !== query.state) throw new HttpError(400, NO_PENDING_LOGIN);
    const claimed = await this.deps.cache.set(`oidc_state:${pending.state}`, true, {
      ifAbsent: true,
      ttlMs: PENDING_LOGIN_TTL_MS,
    });
    if (!claimed) throw new HttpError(400, 'This sign-in was already finished: sign in again');
    try {
      const config = await this.configuration();
      const answer = new URL(this.redirectUri());
      for (const [name, value] of Object.entries(query)) answer.searchParams.set(name, value);
      const tokens = await client.authorizationCodeGrant(
        config,
        answer,
        { pkceCodeVerifier: pending.codeVerifier, expectedState: pending.state, expectedNonce: pending.nonce },
        { redirect_uri: this.redirectUri() },
      );
      const claims = tokens.claims();
      if (!claims) throw new HttpError(400, 'The issuer answered without an ID token');
      const profile = await profileOf(config, claims, tokens.access_token);
      const issuer = config.serverMetadata().issuer;
      const user = await userOfAccount(this.deps.accounts, issuer, profile);
      const alias = pending.provider;
      const git = alias && this.deps.providers.includes(alias) && gitProviderOfAlias(alias, this.deps.gitProviders);
      if (alias && git) {
        const { access_token: accessToken } = tokens;
        const sign = { config, accessToken, alias, git, userId: user.id, issuer, subject: claims.sub };
        await keepSignInGitToken(this.deps.gitTokens, sign, log);
      }
      return { user, returnTo: pending.returnTo, idToken: tokens.id_token };
    } catch (error) {
      throw loginError(error);
    }
  }

  /** The `Set-Cookie` line keeping a sign-in's ID token for its logout (id-token-cookie.ts), if it fits a cookie. */
  keepIdToken(idToken: string, sessionToken: string, maxAgeSeconds: number): string | undefined {
    return idTokenCookie(this.deps.keyRing, idToken, sessionToken, { maxAgeSeconds, secure: this.deps.secureCookies });
  }

  /**
   * Where to send a browser that signed out to end its session at the issuer too, coming back to `returnTo`, with
   * the ID token its `Cookie` header keeps for the session `sessionToken` as `id_token_hint` (the issuer then ends
   * its session without asking); undefined when the issuer has no `end_session_endpoint` or cannot be reached.
   */
  async endSessionUrl(
    returnTo: string | undefined,
    from: { cookieHeader?: string | undefined; sessionToken?: string | undefined } = {},
  ): Promise<string | undefined> {
    const config = await this.deps.issuer.configuration().catch(() => undefined);
    if (!config?.serverMetadata().end_session_endpoint) return undefined;
    const hint = from.sessionToken && idTokenOf(this.deps.keyRing, from.cookieHeader, from.sessionToken);
    return client.buildEndSessionUrl(config, {
      client_id: this.deps.issuer.settings.clientId,
      post_logout_redirect_uri: `${this.deps.publicUrl()}${sameOriginPath(returnTo)}`,
      ...(hint ? { id_token_hint: hint } : {}),
    }).href;
  }

  private redirectUri(): string {
    return `${this.deps.publicUrl()}${CALLBACK_PATH}`;
  }

  private async configuration(): Promise<client.Configuration> {
    try {
      return await this.deps.issuer.configuration();
    } catch (error) {
      throw loginError(error);
    }
  }
}

/**
 * The account's claims: the ID token's, completed from the userinfo endpoint when the token carries no e-mail (an
 * issuer may keep the profile out of the ID token when it issues an access token); userinfo must name the same
 * subject (openid-client checks it).
 */
async function profileOf(
  config: client.Configuration,
  claims: IssuerClaims,
  accessToken: string,
): Promise<IssuerClaims> {
  if (claims.email !== undefined || !config.serverMetadata().userinfo_endpoint) return claims;
  const info = await client.fetchUserInfo(config, accessToken, claims.sub);
  return { ...claims, email: info.email, email_verified: info.email_verified, name: claims.name ?? info.name };
}
