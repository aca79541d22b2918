import { afterAll, beforeAll } from 'vitest';
import { serveGitOverHttp, tempDir } from '../../../sources/test/git/support.ts';
import type { AppServerConfig } from '../../src/index.ts';

export type GitServer = Awaited<ReturnType<typeof serveGitOverHttp>>;

/** Git remotes of a test file, served over HTTP; `options` is for `describeApi`. */
export interface GitRemotes {
  /** `config` as given, with `git_github_url` naming the Git server once it listens (before any server starts). */
  options: { config: Partial<AppServerConfig> };
  /** The Git server (from the file's first test on). */
  server(): GitServer;
}

/**
 * Before the tests of the file (or `describe`) that calls it: repositories made by `fill` in a temporary directory,
 * served over HTTP (asking for `credentials`, when given); after them, the server closed and the directory removed.
 */
export function gitRemotes(
  prefix: string,
  fill: (dir: string) => Promise<unknown>,
  {
    credentials,
    config = {},
  }: { credentials?: { username: string; password: string }; config?: Partial<AppServerConfig> } = {},
): GitRemotes {
  const options = { config: { ...config } };
  let server: GitServer | undefined;
  let remove = async () => {};
  beforeAll(async () => {
    const remotes = await tempDir(prefix);
    remove = remotes.cleanup;
    await fill(remotes.dir);
    server = await serveGitOverHttp(remotes.dir, credentials);
    options.config = { ...config, git_github_url: server.url };
  });
  afterAll(async () => {
    await server?.close();
    await remove();
  });
  return {
    options,
    server: () => {
      if (!server) throw new Error('the Git server starts in beforeAll');
      return server;
    },
  };
}
