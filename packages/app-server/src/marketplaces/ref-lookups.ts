import { createHash } from 'node:crypto';
import type { GitAuth } from '@bosun/sources';

/** One lookup of a ref: the repository (its URL, one spelling per repository), the ref, the credentials asked with. */
export interface RefLookup {
  url: string;
  ref: string | null;
  auth: GitAuth | undefined;
}

/**
 * The commits refs of marketplace repositories name, looked up once for every caller asking the same: identical
 * lookups (same repository URL, ref and credentials) made while one is under way wait for that one (single
 * flight), and a commit found is answered for `ttlMs` more (0: not kept; a failure never is). Callers whose
 * credentials differ never share an answer (a private repository seen with one user's token is never answered to
 * another): the credentials are part of the key, as a digest (no token is kept in clear here).
 */
export class RefLookups {
  private readonly inFlight = new Map<string, Promise<string>>();
  private readonly found = new Map<string, { sha: string; until: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** The commit of `lookup`: from one under way or kept, else from `resolve` (shared with who asks meanwhile). */
  resolve(lookup: RefLookup, resolve: () => Promise<string>): Promise<string> {
    const key = keyOf(lookup);
    const kept = this.found.get(key);
    if (kept && kept.until > this.now()) return Promise.resolve(kept.sha);
    this.found.delete(key);
    let pending = this.inFlight.get(key);
    if (!pending) {
      pending = resolve()
        .then((sha) => {
          if (this.ttlMs > 0) this.keep(key, sha);
          return sha;
        })
        .finally(() => this.inFlight.delete(key));
      this.inFlight.set(key, pending);
    }
    return pending;
  }

  private keep(key: string, sha: string): void {
    const now = this.now();
    // What ran out is dropped as answers are kept: the map holds at most what was found within the TTL.
    for (const [old, { until }] of this.found) if (until <= now) this.found.delete(old);
    this.found.set(key, { sha, until: now + this.ttlMs });
  }
}

function keyOf({ url, ref, auth }: RefLookup): string {
  const credentials = auth ? createHash('sha256').update(JSON.stringify([auth.username ?? null, auth.password])) : null;
  return JSON.stringify([url, ref, credentials ? credentials.digest('hex') : null]);
}
