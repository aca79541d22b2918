import { type GitAuth, type GitCache, pathInside } from '../git/index.ts';

/** A repository checked out and the directory its `repo_path` names; `sha` is null when the fetch failed. */
export type RepositoryCheckout = { sha: string; dir: string } | { sha: string | null; problem: string };

/**
 * Checks out `source` at `ref` and finds `repo_path` inside it; a failure is a problem to record (the fetch's
 * names `fetching`, which must not carry credentials), never a throw.
 */
export async function checkoutRepository(
  cache: GitCache,
  reference: { source: string; repo_path?: string | null },
  ref: string | null,
  auth: GitAuth | undefined,
  fetching: string,
): Promise<RepositoryCheckout> {
  let checkout: Awaited<ReturnType<GitCache['checkout']>>;
  try {
    checkout = await cache.checkout(reference.source, ref, auth);
  } catch (e) {
    return { sha: null, problem: `cannot fetch ${fetching}: ${(e as Error).message}` };
  }
  try {
    return { sha: checkout.sha, dir: await pathInside(checkout.dir, reference.repo_path) };
  } catch (e) {
    return { sha: checkout.sha, problem: `repo_path: ${(e as Error).message}` };
  }
}
