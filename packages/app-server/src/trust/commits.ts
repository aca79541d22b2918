import { type GitAuth, GitCache, repositoryUrl } from '@bosun/sources';
import type { GitProviders } from '@bosun/sources';

const FULL_SHA = /^[0-9a-f]{40}$/i;

/** A plugin reference of a start request (or a launch link). */
export interface PluginRef {
  source: string;
  ref?: string | null;
  repo_path?: string | null;
}

/**
 * The commits plugin references name now. The server asks only the configured Git providers (a `github:` source,
 * or a URL under a provider's base URL): it never contacts another host or reads a local path for a user (SSRF).
 * For other sources the commit is the reference's own when it is a full SHA, else null (unknown).
 */
export class PluginCommits {
  private readonly git: GitCache;

  constructor(
    private readonly providers: Required<GitProviders>,
    cacheDir: string,
  ) {
    this.git = new GitCache({ dir: cacheDir, providers, timeoutMs: 30_000 });
  }

  /** Whether the server fetches `source` (it is on a configured provider). */
  fetches(source: string): boolean {
    if (/^(github|gitlab|bitbucket):/.test(source)) return true;
    return Object.values(this.providers).some((base) => {
      const prefix = `${base.replace(/\/+$/, '')}/`;
      return (
        source.startsWith(prefix) &&
        !source
          .slice(prefix.length)
          .split(/[/?#]/)
          .some((part) => /^\.\.?$/.test(part))
      );
    });
  }

  /** The commit `plugin` names now (see the class); throws with a message a person can act on. */
  async commitOf(plugin: PluginRef, auth: (url: string) => GitAuth | undefined): Promise<string | null> {
    const ref = plugin.ref ?? null;
    if (ref && FULL_SHA.test(ref)) return ref.toLowerCase();
    if (!this.fetches(plugin.source)) return null;
    return this.git.resolve(plugin.source, ref, auth(repositoryUrl(plugin.source, this.providers)));
  }
}
