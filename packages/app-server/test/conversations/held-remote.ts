import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serveGitOverHttp, tempDir } from '../../../sources/test/git/support.ts';
import { forwardTo } from '../support/git-host-clone.ts';
import { bareRepository } from './support.ts';

/**
 * Git repositories served over HTTP through a gate: while it is closed (from the start), every request waits; a
 * start that clones one waits in PREPARING_REPOSITORY as long as the test wants, a real lever to stop a replica
 * mid-start. `refuse()` answers what waits 503 (the clone fails); `open()` lets everything through from then on,
 * until `hold()` closes the gate again.
 */
export interface HeldRemote {
  /** `git_github_url` of the app: `<url>/<owner>/<repo>.git` is a repository. */
  url: string;
  /** How many requests wait at the gate now. */
  waiting(): number;
  refuse(): void;
  open(): void;
  hold(): void;
  close(): Promise<void>;
}

export async function heldRemote(repositories: string[]): Promise<HeldRemote> {
  const root = await tempDir('bosun-held-remote-');
  for (const name of repositories) await bareRepository(root.dir, name, { main: { 'README.md': `${name}\n` } });
  const git = await serveGitOverHttp(root.dir);
  const through = forwardTo(new URL(git.url));
  let gate: 'closed' | 'open' = 'closed';
  const held: { pass: () => void; refuse: () => void }[] = [];
  const server = createServer((incoming, response) => {
    if (gate === 'open') return through(incoming, response);
    incoming.pause();
    held.push({
      pass: () => {
        incoming.resume();
        through(incoming, response);
      },
      refuse: () => {
        incoming.resume();
        response.writeHead(503).end();
      },
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const refuse = () => {
    for (const request of held.splice(0)) request.refuse();
  };
  return {
    url: `http://127.0.0.1:${port}`,
    waiting: () => held.length,
    refuse,
    open() {
      gate = 'open';
      for (const request of held.splice(0)) request.pass();
    },
    hold() {
      gate = 'closed';
    },
    async close() {
      refuse();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await git.close();
      await root.cleanup();
    },
  };
}
