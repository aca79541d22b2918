import type { Cache } from '../../src/cache/index.ts';
import type { KeyRing, Repositories } from '../../src/data/index.ts';
import { type OidcLogin, type OidcSettings, oidcLoginOf } from '../../src/identity/oidc/index.ts';

/** The server's sign-in through the issuer `config` names (or undefined), as the tests build it: plain HTTP. */
export function testOidcLogin(
  config: OidcSettings,
  data: { keyRing: KeyRing; cache: Cache; repositories: Repositories },
  publicUrl: () => string,
): OidcLogin | undefined {
  const { keyRing, cache, repositories } = data;
  return oidcLoginOf(config, { keyRing, cache, accounts: repositories, publicUrl, secureCookies: false });
}
