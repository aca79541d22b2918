import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect } from 'vitest';
import { closedPort } from '../../../sources/test/support/closed-port.ts';
import { accountApi, accountRouteDeps } from '../../src/account/account-api.ts';
import { type Cache, MemoryCache, openCache } from '../../src/cache/index.ts';
import { KeyRing, type Repositories, createRepositories, newSecretsKey } from '../../src/data/index.ts';
import { gitUrlsOf } from '../../src/git/provider-urls.ts';
import { DEFAULT_GIT_URLS } from '../../src/git/provider-urls.ts';
import { gitBrowseApi } from '../../src/git/routes/git-browse.ts';
import { GitTokenRenewal, renewalClientsOf } from '../../src/git/token-renewal.ts';
import { webClientConfigRoutes } from '../../src/http/web-client-config.ts';
import { DEFAULT_RATE_LIMITS, type RateLimits } from '../../src/identity/rate-limits.ts';
import { type AppServer, type AppServerConfig, buildAppServer } from '../../src/index.ts';
import { RateLimiter } from '../../src/rate-limit/index.ts';
import { REDIS_URL, removeKeys, uniquePrefix } from '../cache/redis-support.ts';
import type { Browser, Visit } from '../support/browser.ts';
import { describeEachDatabase } from '../support/databases.ts';
import { type TestAccount, TestIssuer } from '../support/oidc-issuer.ts';
import { testOidcLogin } from '../support/oidc-login.ts';

/** An app server with the identity and Git browsing routes signing in through a real issuer, over a real database. */
export interface OidcWorld {
  url: string;
  issuer: TestIssuer;
  repositories: Repositories;
  logs: string[];
  /** A new account at the issuer (a unique subject; e-mail verified unless said otherwise). */
  account(claims?: Partial<TestAccount>): TestAccount;
  /** Signs `account` in with `browser` through the login route: the callback's answer (a redirect when it worked). */
  signIn(browser: Browser, account: TestAccount, options?: SignInOptions): Promise<Visit>;
  /** `path` of the app with `browser`'s cookies. */
  visit(browser: Browser, path: string, init?: RequestInit): Promise<Visit>;
}

export interface SignInOptions {
  /** The login route's query (`?provider=...`). */
  query?: string;
  /** Changes a redirect before the browser follows it (to play an attacker or a broken issuer). */
  rewrite?: (next: URL) => URL;
}

export interface OidcWorldOptions {
  rateLimits?: Partial<RateLimits>;
  config?: Partial<AppServerConfig>;
  conformIdTokenClaims?: boolean;
}

/** Whether a redirect goes on to the issuer or back to the app's own auth routes (the sign-in's hops). */
export const inSignIn = (appUrl: string) => (next: URL) =>
  next.origin !== new URL(appUrl).origin || next.pathname.startsWith('/api/v1/auth/');

/**
 * Declares `body`'s tests on SQLite (cache in process) and on PostgreSQL with Redis: an app server on a free port
 * whose `oidc_issuer_url` is a `TestIssuer` started after it (on a port reserved before).
 */
export function describeOidc(name: string, body: (world: () => OidcWorld) => void, options: OidcWorldOptions = {}) {
  describeEachDatabase(name, (each) => {
    let world: OidcWorld | undefined;
    let server: AppServer | undefined;
    let issuer: TestIssuer | undefined;
    let cache: Cache | undefined;
    const keyPrefix = uniquePrefix();
    beforeAll(async () => {
      const keyRing = new KeyRing(newSecretsKey());
      const repositories = createRepositories(await each.open({ keyRing }), keyRing);
      cache = each.dialect === 'postgres' ? await openCache({ redisUrl: REDIS_URL, keyPrefix }) : new MemoryCache();
      const issuerUrl = `http://127.0.0.1:${await closedPort()}`;
      const config = {
        log_level: 'info' as const,
        oidc_issuer_url: issuerUrl,
        oidc_client_id: 'bosun',
        oidc_client_secret: 'bosun-test-secret',
        ...options.config,
      };
      let url = '';
      const limits = { ...DEFAULT_RATE_LIMITS, sign_in: { limit: 1000, windowMs: 60_000 }, ...options.rateLimits };
      const deps = accountRouteDeps(repositories, config, new RateLimiter(cache), limits);
      const oidc = testOidcLogin(config, { keyRing, cache, repositories }, () => url);
      const logs: string[] = [];
      const note = (details: object, message: string) => logs.push(JSON.stringify({ ...details, message }));
      // The tokens as the server reads them to use them: renewed when they expire (the provider apps' clients).
      const gitTokens = new GitTokenRenewal({
        store: repositories.providerTokens,
        clients: renewalClientsOf(config),
        urls: gitUrlsOf(config),
        log: { warn: note },
      });
      server = await buildAppServer({
        config,
        apiRoutes: [
          accountApi({ ...deps, ...(oidc ? { oidc } : {}) }),
          webClientConfigRoutes(DEFAULT_GIT_URLS, () => (oidc ? `${url}/api/v1/auth/login` : null)),
          // Git browsing with the tokens a sign-in stores (the Git providers of `options.config`).
          gitBrowseApi({
            providerTokens: gitTokens,
            gitUrls: gitUrlsOf(config),
            allowPrivateHosts: config.git_allow_private_hosts ?? false,
          }),
        ],
        logStream: { write: (line: string) => logs.push(line) },
      });
      await server.app.listen({ host: '127.0.0.1', port: 0 });
      url = `http://127.0.0.1:${(server.app.server.address() as AddressInfo).port}`;
      issuer = await TestIssuer.start({
        port: Number(new URL(issuerUrl).port),
        redirectUris: [`${url}/api/v1/auth/callback`],
        postLogoutRedirectUris: [`${url}/`, `${url}/bye`],
        ...(options.conformIdTokenClaims === undefined ? {} : { conformIdTokenClaims: options.conformIdTokenClaims }),
      });
      const started = issuer;
      world = {
        url,
        issuer: started,
        repositories,
        logs,
        account: (claims = {}) => {
          const sub = `sub-${randomUUID()}`;
          return { sub, email: `${sub}@example.test`, email_verified: true, name: 'Ada Lovelace', ...claims };
        },
        signIn: (browser, account, { query = '', rewrite } = {}) => {
          started.signsIn(account);
          return browser.navigate(`${url}/api/v1/auth/login${query}`, {
            follow: inSignIn(url),
            ...(rewrite ? { rewrite } : {}),
          });
        },
        visit: (browser, path, init) => browser.visit(`${url}${path}`, init),
      };
    });
    afterAll(async () => {
      await server?.close();
      await issuer?.close();
      await cache?.close();
      if (each.dialect === 'postgres') await removeKeys(keyPrefix);
    });
    body(() => {
      if (!world) throw new Error('the world is started in beforeAll');
      return world;
    });
  });
}

/** Runs `browser`'s login up to the issuer's redirect back to the app, not followed: the callback URL. */
export async function callbackUrl(world: OidcWorld, browser: Browser, rewrite?: (next: URL) => URL): Promise<string> {
  world.issuer.signsIn(world.account());
  const stopped = await browser.navigate(`${world.url}/api/v1/auth/login`, {
    follow: (next) => next.pathname !== '/api/v1/auth/callback',
    ...(rewrite ? { rewrite } : {}),
  });
  expect(stopped.location).toContain('/api/v1/auth/callback');
  return stopped.location as string;
}
