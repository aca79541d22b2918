import type { MintedToken } from './app-api.ts';

/** An installation token to use now. */
export interface InstallationToken {
  token: string;
  installationId: string;
  /** Minted for this request (false: from the cache, which a host may have revoked since). */
  fresh: boolean;
}

interface Cached extends MintedToken {
  installationId: string;
}

export interface InstallationTokensOptions {
  mint: (installationId: string, repositories: readonly string[]) => Promise<MintedToken>;
  /** How long before it expires a token is minted again (default 5 minutes: a clone started with it must end). */
  marginMs?: number;
  now?: () => number;
}

/**
 * The installation tokens the app minted, each kept until shortly before it expires, per installation and the
 * repositories it reads (one request at a time per such pair; the callers asking meanwhile share its answer). A
 * token is never logged; it lives only here and in the Git command it is given to.
 */
export class InstallationTokens {
  private readonly cached = new Map<string, Cached>();
  private readonly flights = new Map<string, Promise<Cached>>();
  private readonly marginMs: number;
  private readonly now: () => number;

  constructor(private readonly options: InstallationTokensOptions) {
    this.marginMs = options.marginMs ?? 5 * 60_000;
    this.now = options.now ?? Date.now;
  }

  /** A token of `installationId` for `repositories`: the cached one while it lasts, else a new one. */
  async token(installationId: string, repositories: readonly string[]): Promise<InstallationToken> {
    const key = keyOf(installationId, repositories);
    const cached = this.cached.get(key);
    if (cached && cached.expiresAt - this.marginMs > this.now()) return { ...tokenOf(cached), fresh: false };
    return { ...tokenOf(await this.minted(key, installationId, repositories)), fresh: true };
  }

  /**
   * Another token in place of `refused` (a host refused it: revoked, or expired early): minted once for all the
   * callers whose token was refused at once, and never again for the same refused token.
   */
  async renewed(refused: InstallationToken, repositories: readonly string[]): Promise<InstallationToken> {
    const key = keyOf(refused.installationId, repositories);
    if (this.cached.get(key)?.token === refused.token) this.cached.delete(key);
    return this.token(refused.installationId, repositories);
  }

  /** Drops the tokens of an installation (deleted, suspended, or its repositories changed). */
  forget(installationId: string): void {
    for (const [key, cached] of this.cached) if (cached.installationId === installationId) this.cached.delete(key);
  }

  private minted(key: string, installationId: string, repositories: readonly string[]): Promise<Cached> {
    let flight = this.flights.get(key);
    if (!flight) {
      flight = this.options
        .mint(installationId, repositories)
        .then((minted) => {
          const cached = { ...minted, installationId };
          this.cached.set(key, cached);
          return cached;
        })
        .finally(() => this.flights.delete(key));
      this.flights.set(key, flight);
    }
    return flight;
  }
}

const keyOf = (installationId: string, repositories: readonly string[]) =>
  `${installationId}\n${[...repositories].sort().join('\n')}`;

const tokenOf = ({ token, installationId }: Cached) => ({ token, installationId });
