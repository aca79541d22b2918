import { type IncomingMessage, type Server, type ServerResponse, createServer, request as forward } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serveGitOverHttp, tempDir } from '../../../sources/test/git/support.ts';
import { bareRepository } from '../conversations/support.ts';

/** A request a clone host got: its path and the `Authorization` header it carried. */
export interface CloneRequest {
  path: string;
  authorization: string | undefined;
}

/**
 * A Git host on loopback (`git http-backend`) serving `repositories` (each `<name>.git`, with a README on `main`)
 * only to requests carrying one of the `accepted` `Authorization` headers (Basic or Bearer, as Git hosts take a
 * token): any other is a 401 asking for Basic credentials. Every request is recorded, so a test proves which
 * host a clone asked and with what.
 */
export interface CloneHost {
  url: string;
  requests: CloneRequest[];
  close(): Promise<void>;
}

/** A handler that passes each request on to the HTTP server at `target`, and its answer back. */
export function forwardTo(target: URL) {
  return (incoming: IncomingMessage, response: ServerResponse) => {
    const upstream = forward(
      {
        host: target.hostname,
        port: target.port,
        path: incoming.url,
        method: incoming.method,
        headers: incoming.headers,
      },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    upstream.on('error', () => response.destroy());
    incoming.pipe(upstream);
  };
}

export const basic = (user: string, password: string) =>
  `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

export async function cloneHost(repositories: string[], accepted: string[]): Promise<CloneHost> {
  const root = await tempDir('bosun-clone-host-');
  for (const name of repositories) await bareRepository(root.dir, name, { main: { 'README.md': `${name}\n` } });
  const git = await serveGitOverHttp(root.dir);
  const through = forwardTo(new URL(git.url));
  const requests: CloneRequest[] = [];
  const server = createServer((incoming: IncomingMessage, response: ServerResponse) => {
    const authorization = incoming.headers.authorization;
    requests.push({ path: new URL(incoming.url ?? '/', 'http://host').pathname, authorization });
    if (!authorization || !accepted.includes(authorization)) {
      incoming.resume();
      response.writeHead(401, { 'WWW-Authenticate': 'Basic realm="git"' }).end();
      return;
    }
    through(incoming, response);
  });
  return { ...(await inFrontOf(server, git, root)), requests };
}

/**
 * `server` listening on 127.0.0.1 in front of `git` (the `git http-backend` it forwards to) and its repositories in
 * `root`: its URL, and how to close all three.
 */
export async function inFrontOf(
  server: Server,
  git: { close(): Promise<void> },
  root: { cleanup(): Promise<void> },
): Promise<{ url: string; close(): Promise<void> }> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await git.close();
      await root.cleanup();
    },
  };
}
