import * as client from 'openid-client';

/** Where the app server is registered as a client (`oidc_*` settings). */
export interface OidcClientSettings {
  issuerUrl: string;
  clientId: string;
  /** None: a public client (PKCE alone). */
  clientSecret?: string;
}

/** How the issuer's problems are told to the operator. */
export interface IssuerLog {
  warn(details: object, message: string): void;
}

/** Seconds an issuer has to answer one request (discovery, token exchange, keys). */
const ISSUER_TIMEOUT_SECONDS = 10;

/** The issuer does not answer (down, unknown host, timeout, not an OpenID Connect issuer). */
export class IssuerUnreachableError extends Error {
  override readonly name = 'IssuerUnreachableError';
}

/**
 * The issuer as the app's client of it: its metadata read once by discovery. Discovery starts with the server;
 * while it fails (the issuer is down) each use tries again (one attempt at a time, shared by concurrent callers),
 * so the app starts and serves without its issuer and login works as soon as the issuer answers.
 */
export class OidcIssuer {
  private discovered: client.Configuration | undefined;
  private discovering: Promise<client.Configuration> | undefined;

  constructor(
    readonly settings: OidcClientSettings,
    private readonly log?: IssuerLog,
  ) {}

  /** Starts discovery now; a failure is logged and retried at the next use. */
  warmUp(): void {
    this.configuration().catch(() => {});
  }

  /** The issuer's configuration; an IssuerUnreachableError while it cannot be discovered. */
  async configuration(): Promise<client.Configuration> {
    if (this.discovered) return this.discovered;
    this.discovering ??= this.discover().finally(() => {
      this.discovering = undefined;
    });
    return this.discovering;
  }

  private async discover(): Promise<client.Configuration> {
    const { issuerUrl, clientId, clientSecret } = this.settings;
    try {
      this.discovered = await client.discovery(
        new URL(issuerUrl),
        clientId,
        clientSecret,
        clientSecret === undefined ? client.None() : undefined,
        {
          timeout: ISSUER_TIMEOUT_SECONDS,
          // An http:// issuer is the operator's explicit choice (an issuer inside the cluster, the tests).
          execute: issuerUrl.startsWith('http://') ? [client.allowInsecureRequests] : [],
        },
      );
      return this.discovered;
    } catch (error) {
      const reason = reasonOf(error);
      this.log?.warn({ issuer: issuerUrl, reason }, 'OpenID Connect issuer discovery failed: login waits for it');
      throw new IssuerUnreachableError(`The sign-in issuer cannot be reached (${reason}): try again later`);
    }
  }
}

/** What openid-client's errors carry: the failed response, or the check that failed on it. */
type FailedCheck = { attribute?: string; body?: unknown };
type FailureCause = FailedCheck & { code?: string; message?: string; status?: number; cause?: FailedCheck };

/** A short reason for a failed request to the issuer, for the operator: no response body, no secret. */
export function reasonOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  if (error.name === 'TimeoutError') return 'no answer in time';
  const cause = (error as { cause?: FailureCause }).cause;
  // The check that the discovered issuer is the configured one: openid-client's own, or oauth4webapi's below it.
  const check = cause?.attribute === 'issuer' ? cause : cause?.cause;
  if (check?.attribute === 'issuer') {
    const named = (check.body as { issuer?: unknown } | undefined)?.issuer;
    return `it names itself ${JSON.stringify(named)}: oidc_issuer_url must be exactly that`;
  }
  if (typeof cause?.status === 'number') return `HTTP ${cause.status}`;
  return cause?.code ?? cause?.message ?? error.message;
}
