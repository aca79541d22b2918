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
  /**
   * The token response each identity provider gave at this account's sign-in, as Keycloak stores it (*Store tokens*)
   * and serves it at `/broker/<alias>/token`: JSON (`{"access_token":...}`) or GitHub's form-encoded answer.
   */
  brokerTokens?: Record<string, string>;
}

/** One request to the broker endpoint: the alias asked and whether its bearer access token was the issuer's. */
export interface BrokerRequest {
  alias: string;
  authorized: boolean;
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
  /** Every request to the broker endpoint, in order. */
  readonly brokerRequests: BrokerRequest[] = [];
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
      const broker = /^\/broker\/([^/?]+)\/token$/.exec(req.url ?? '');
      if (broker && req.method === 'GET') {
        issuer.brokerToken(provider, decodeURIComponent(broker[1] as string), req, res).catch((error) => {
          res.statusCode = 500;
          res.end(String(error));
        });
        return;
      }
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

  /**
   * Keycloak's `GET /realms/<realm>/broker/<alias>/token`: the token response identity provider `alias` gave at the
   * sign-in of the bearer access token's holder, for a valid access token this issuer gave its client (checked in
   * the provider's own token store); 401 for any other, 400 when the account has no stored token of that provider.
   * Served as `application/json` whatever the stored answer is, as Keycloak does.
   */
  private async brokerToken(provider: Provider, alias: string, req: IncomingMessage, res: ServerResponse) {
    const bearer = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
    const token = bearer ? await provider.AccessToken.find(bearer) : undefined;
    const authorized = token !== undefined && !token.isExpired && token.clientId === this.clientId;
    this.brokerRequests.push({ alias, authorized });
    const answer = (status: number, body: string) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(body);
    };
    if (!authorized || !token?.accountId) return answer(401, JSON.stringify({ error: 'invalid_token' }));
    const stored = this.accounts.get(token.accountId)?.brokerTokens?.[alias];
    if (stored === undefined) {
      return answer(
        400,
        JSON.stringify({ errorMessage: `Identity Provider [${alias}] does not support this operation.` }),
      );
    }
    answer(200, stored);
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
        if (!account) return undefined;
        const { brokerTokens: _stored, ...claims } = account;
        return { accountId: id, claims: () => ({ ...claims }) };
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
