import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { GitAuth, GitCache } from '@bosun/sources';
import { HostGuard } from '../git/host-guard.ts';
import type { GitProviderUrls } from '../git/provider-urls.ts';
import { type ProviderTokenReader, providerTokenSecrets } from '../git/token-renewal.ts';
import { RefLookups } from './ref-lookups.ts';

/** The Git access and marketplace readers of `@bosun/sources`, loaded on first use (most requests never need them). */
let library: Promise<typeof import('@bosun/sources')> | undefined;
export const sourcesLibrary = () => {
  library ??= import('@bosun/sources');
  return library;
};

export interface MarketplaceGitOptions {
  providers: GitProviderUrls;
  allowPrivateHosts: boolean;
  /** The users' provider tokens, renewed when they expire. */
  gitTokens: ProviderTokenReader;
  /** Longest one Git command may take (default 60 s). */
  timeoutMs?: number;
  /** How long a ref's commit found for one start answers others asking the same (default 0: only those at once). */
  refTtlMs?: number;
}

/**
 * How the server itself reaches marketplace repositories: through the host guard (configured providers only,
 * pinned to checked addresses), with the user's own Git provider tokens for private repositories.
 */
export class MarketplaceGit {
  readonly guard: HostGuard;
  private readonly lookups: RefLookups;

  constructor(private readonly options: MarketplaceGitOptions) {
    this.guard = new HostGuard({ providers: options.providers, allowPrivateHosts: options.allowPrivateHosts });
    this.lookups = new RefLookups(options.refTtlMs ?? 0);
  }

  get providers(): GitProviderUrls {
    return this.options.providers;
  }

  /** A Git cache in `dir` whose every command goes through the guard. */
  async cache(dir: string): Promise<GitCache> {
    const { GitCache } = await sourcesLibrary();
    return new GitCache({
      dir,
      providers: this.options.providers,
      timeoutMs: this.options.timeoutMs ?? 60_000,
      remoteConfig: (url) => this.guard.gitConfig(url),
    });
  }

  /**
   * The commit `ref` of `source` names, through `cache` with `auth`: one `git ls-remote` for every caller asking the
   * same repository, ref and credentials at once (or within the TTL), never shared across credentials (RefLookups).
   */
  async resolve(cache: GitCache, source: string, ref: string | null, auth: GitAuth | undefined): Promise<string> {
    const { repositoryUrl } = await sourcesLibrary();
    let url: string;
    try {
      url = repositoryUrl(source, this.options.providers);
    } catch {
      url = source;
    }
    return this.lookups.resolve({ url, ref, auth }, () => cache.resolve(source, ref, auth));
  }

  /** The credentials of `userId` for a source, by host (`authFor(source)`). */
  async authOf(userId: string): Promise<(source: string) => GitAuth | undefined> {
    const { gitAuthFromSecrets, repositoryUrl } = await sourcesLibrary();
    const secrets = await providerTokenSecrets(this.options.gitTokens, userId);
    const providers = this.options.providers;
    return (source) => {
      try {
        return gitAuthFromSecrets(repositoryUrl(source, providers), secrets, providers);
      } catch {
        return undefined;
      }
    };
  }

  /**
   * Runs `work` with a Git cache in a directory of its own (removed afterwards, so nothing fetched for one user
   * is ever served to another) and the user's credentials.
   */
  async scratch<T>(
    userId: string,
    work: (cache: GitCache, authFor: (source: string) => GitAuth | undefined) => Promise<T>,
  ): Promise<T> {
    const dir = await mkdtemp(join(tmpdir(), 'bosun-marketplaces-'));
    try {
      return await work(await this.cache(dir), await this.authOf(userId));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
}
