import { generateKeyPairSync } from 'node:crypto';
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, { type Configuration } from 'oidc-provider';

/** Who signs in at the issuer: their claims (`email_verified` as the issuer says it). */
export interface TestAccount {
  sub: string;
  email?: string;
  email_verified?: boolean;
  name?: string;
}

export interface TestIssuerOptions {
  /** The port to listen on (default: a free one); the issuer URL is `http://127.0.0.1:<port>`. */
  port?: number;
  clientId?: string;
  clientSecret?: string;
  /** The app's callback (`<public_url>/api/v1/auth/callback`) and where it may come back after logout. */
  redirectUris: string[];
  postLogoutRedirectUris?: string[];
  /** true: the ID token holds only `sub` (e-mail and name from userinfo, as the spec prefers); false: like Keycloak. */
  conformIdTokenClaims?: boolean;
}

/**
 * A real OpenID Connect issuer (`oidc-provider`) on loopback, standing in for Keycloak: discovery, authorization
 * with PKCE, the token endpoint, signed ID tokens, userinfo and end-session. Its one interaction signs in `next`
 * without a form (or refuses the sign-in with `access_denied` when `next` is a refusal), then grants the scopes.
 */
export class TestIssuer {
  /** Who the next sign-in at the issuer is, or a refusal. */
  next: TestAccount | { deny: string } = { sub: 'nobody' };
  private readonly accounts = new Map<string, TestAccount>();

  private constructor(
    readonly url: string,
    readonly clientId: string,
    readonly clientSecret: string,
    private readonly server: Server,
  ) {}

  static async start(options: TestIssuerOptions): Promise<TestIssuer> {
    const server = createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
    });
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const issuer = new TestIssuer(
      url,
      options.clientId ?? 'bosun',
      options.clientSecret ?? 'bosun-test-secret',
      server,
    );
    const provider = new Provider(url, issuer.configuration(options));
    const callback = provider.callback();
    server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      if (req.url?.startsWith('/interaction/')) {
        issuer.interact(provider, req, res).catch((error) => {
          res.statusCode = 500;
          res.end(String(error));
        });
        return;
      }
      callback(req, res);
    });
    return issuer;
  }

  /** Signs `account` in at the next login. */
  signsIn(account: TestAccount): void {
    this.accounts.set(account.sub, account);
    this.next = account;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private configuration(options: TestIssuerOptions): Configuration {
    return {
      clients: [
        {
          client_id: this.clientId,
          client_secret: this.clientSecret,
          redirect_uris: options.redirectUris,
          post_logout_redirect_uris: options.postLogoutRedirectUris ?? [],
          response_types: ['code'],
          grant_types: ['authorization_code'],
        },
      ],
      pkce: { required: () => true },
      claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
      conformIdTokenClaims: options.conformIdTokenClaims ?? true,
      findAccount: (_ctx, id) => {
        const account = this.accounts.get(id);
        return account && { accountId: id, claims: () => ({ ...account }) };
      },
      interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
      features: { devInteractions: { enabled: false }, rpInitiatedLogout: { enabled: true } },
      cookies: { keys: ['bosun-test-issuer-cookie-key'] },
      jwks: { keys: [generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' })] },
      ttl: { Interaction: 600, Session: 3600, Grant: 3600, AccessToken: 600, IdToken: 600, AuthorizationCode: 60 },
    };
  }

  private async interact(provider: Provider, req: IncomingMessage, res: ServerResponse): Promise<void> {
    const details = await provider.interactionDetails(req, res);
    const next = this.next;
    if ('deny' in next) {
      const refusal = { error: 'access_denied', error_description: next.deny };
      await provider.interactionFinished(req, res, refusal, { mergeWithLastSubmission: false });
      return;
    }
    if (details.prompt.name === 'login') {
      await provider.interactionFinished(
        req,
        res,
        { login: { accountId: next.sub } },
        { mergeWithLastSubmission: false },
      );
      return;
    }
    const accountId = details.session?.accountId as string;
    const grant = new provider.Grant({ accountId, clientId: details.params.client_id as string });
    grant.addOIDCScope(String(details.params.scope));
    await provider.interactionFinished(req, res, { consent: { grantId: await grant.save() } });
  }
}
