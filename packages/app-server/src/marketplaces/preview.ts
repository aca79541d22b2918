import { stat } from 'node:fs/promises';
import { InputError, NotFoundError } from '@bosun/http';
import type { MarketplacePreview, MarketplacePreviewRequest } from '@bosun/protocol';
import { HostRefusedError } from '../git/host-guard.ts';
import { type MarketplaceGit, sourcesLibrary } from './git-access.ts';
import { registrationProblems } from './registration.ts';

const invalid = (field: string, msg: string) => new InputError([{ loc: ['body', field], msg, type: 'value_error' }]);

/**
 * A marketplace read at its ref before anyone registers it: its plugins (each read as a conversation would load
 * it) and every problem. Fetched into a directory of its own (`MarketplaceGit.scratch`). What the caller got wrong is a 422 (or a 404 for a repository without a
 * marketplace), never a 500.
 */
export async function previewMarketplace(
  git: MarketplaceGit,
  userId: string,
  body: MarketplacePreviewRequest,
): Promise<MarketplacePreview> {
  const source = body.source.trim();
  const problems = registrationProblems({ ...body, source }, ['body']);
  if (problems.length) throw new InputError(problems);
  const sources = await sourcesLibrary();
  try {
    sources.repositoryUrl(source, git.providers);
  } catch (error) {
    throw invalid('source', (error as Error).message);
  }
  const ref = body.ref ?? null;
  const repoPath = body.repo_path ?? null;
  return git.scratch(userId, async (cache, authFor) => {
    const auth = authFor(source);
    let sha: string;
    try {
      sha = await cache.resolve(source, ref, auth);
    } catch (error) {
      const message = (error as Error).message;
      if (ref && /has no branch or tag/.test(message)) throw invalid('ref', message);
      throw invalid('source', fetchFailure(source, error));
    }
    let dir: string;
    try {
      dir = (await cache.checkout(source, sha, auth)).dir;
    } catch (error) {
      throw invalid(ref ? 'ref' : 'source', fetchFailure(source, error));
    }
    if (repoPath) {
      let path: string;
      try {
        path = await sources.pathInside(dir, repoPath);
      } catch (error) {
        throw invalid('repo_path', (error as Error).message);
      }
      if (!(await stat(path).catch(() => null))?.isDirectory()) {
        throw invalid('repo_path', `Repository path not found: ${repoPath} is no directory at ${sha}`);
      }
    }
    const read = await sources.readMarketplace({ source, ref: sha, repo_path: repoPath }, cache, auth);
    if (!read.manifestPath) {
      const where = `${sources.redactCredentials(source)} at ${sha}${repoPath ? ` in ${repoPath}` : ''}`;
      throw new NotFoundError(
        `No marketplace in ${where}: no .plugin/marketplace.json or .claude-plugin/marketplace.json`,
      );
    }
    const marketplace = await sources.inspectMarketplace(read, cache, authFor, { remote: true });
    return { source: sources.redactCredentials(source), ref, repo_path: repoPath, resolved_ref: sha, marketplace };
  });
}

function fetchFailure(source: string, error: unknown): string {
  const message = (error as Error).message;
  return error instanceof HostRefusedError ? message : `cannot fetch ${source}: ${message}`;
}
