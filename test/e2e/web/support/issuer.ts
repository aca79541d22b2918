import { TestIssuer } from '../../../../packages/app-server/test/support/oidc-issuer.ts';
import { closedPort } from '../../../../packages/sources/test/support/closed-port.ts';
import type { WebAppOptions } from './app.ts';

/**
 * An OpenID issuer on loopback (oidc-provider, standing in for Keycloak) and the app's settings to use it, with
 * `env` added: the app listens on a port chosen here, so that the issuer knows its callback.
 */
export async function startIssuer(
  env: Record<string, string> = {},
): Promise<{ issuer: TestIssuer; app: WebAppOptions }> {
  const port = await closedPort();
  const url = `http://127.0.0.1:${port}`;
  const issuer = await TestIssuer.start({
    redirectUris: [`${url}/api/v1/auth/callback`],
    postLogoutRedirectUris: [`${url}/sign-in`, `${url}/`],
  });
  return {
    issuer,
    app: {
      port,
      env: {
        BOSUN_PUBLIC_URL: url,
        BOSUN_OIDC_ISSUER_URL: issuer.url,
        BOSUN_OIDC_CLIENT_ID: issuer.clientId,
        BOSUN_OIDC_CLIENT_SECRET: issuer.clientSecret,
        ...env,
      },
    },
  };
}
