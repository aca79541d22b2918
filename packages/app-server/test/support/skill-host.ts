import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import { TestRepository, serveGitOverHttp, tempDir } from '../../../sources/test/git/support.ts';
import type { AppStandIn } from './git-host-app.ts';
import { forwardTo, inFrontOf } from './git-host-clone.ts';

export interface SkillHostOptions {
  /** The login of the account behind each token (`GET /api/v3/user`, `/api/v4/user`). */
  logins: Record<string, string>;
  /** The repositories (`owner/name`) and the files of their one commit on `main`. */
  repositories: Record<string, Record<string, string>>;
  /** The tokens that may read each repository; one not listed here is public. */
  readers: Record<string, string[]>;
  /** The organizations of the account behind each token (`GET /api/v3/user/orgs`). */
  organizations?: Record<string, string[]>;
  /** A GitHub App's routes, whose installation tokens read the repositories they were minted for. */
  app?: AppStandIn;
}

/** A request the host got: its path and the token it carried (Basic's password, or the Bearer token). */
export interface SkillHostRequest {
  path: string;
  token: string | undefined;
}

export interface SkillHost {
  url: string;
  requests: SkillHostRequest[];
  /** The commit of each repository. */
  commits: Record<string, string>;
  close(): Promise<void>;
}

function tokenOf(request: IncomingMessage): string | undefined {
  const header = request.headers.authorization ?? '';
  const basic = /^Basic\s+(.+)$/i.exec(header)?.[1];
  if (basic) return Buffer.from(basic, 'base64').toString('utf8').split(':').slice(1).join(':');
  return /^Bearer\s+(.+)$/i.exec(header)?.[1];
}

/**
 * A Git provider on loopback: Git over smart HTTP (`git http-backend`) for the repositories, each private one only
 * to the tokens listed as its readers (401 otherwise, as a host asks for credentials), and the REST routes the app
 * reads the token's account and organizations from (GitHub's `/api/v3/user` and `/api/v3/user/orgs`, GitLab's
 * `/api/v4/user`); with `app`, a GitHub App's routes (git-host-app.ts) and its installation tokens. Every request is
 * recorded with the token it carried, so a test proves which credentials went where.
 */
export async function skillHost(options: SkillHostOptions): Promise<SkillHost> {
  const root = await tempDir('bosun-skill-host-');
  const commits: Record<string, string> = {};
  for (const [name, files] of Object.entries(options.repositories)) {
    commits[name] = await (await TestRepository.create(root.dir, name)).commit(files);
  }
  const git = await serveGitOverHttp(root.dir);
  const through = forwardTo(new URL(git.url));
  const requests: SkillHostRequest[] = [];
  const server = createServer((incoming: IncomingMessage, response: ServerResponse) => {
    const path = new URL(incoming.url ?? '/', 'http://host').pathname;
    const token = tokenOf(incoming);
    requests.push({ path, token });
    const json = (status: number, body: unknown) => {
      incoming.resume();
      response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    };
    if (options.app && /^\/api\/v3\/(app|repos)\//.test(path)) {
      const app = options.app;
      const chunks: Buffer[] = [];
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
      incoming.on('end', () => {
        const answer = app.answer(incoming, path, Buffer.concat(chunks).toString('utf8'));
        response.writeHead(answer?.status ?? 404, { 'content-type': 'application/json' });
        response.end(JSON.stringify(answer?.body ?? { message: 'Not Found' }));
      });
      return;
    }
    if (path === '/api/v3/user/orgs') {
      const organizations = token === undefined ? undefined : options.organizations?.[token];
      if (!organizations) return json(401, { message: 'Bad credentials' });
      return json(
        200,
        organizations.map((login) => ({ login })),
      );
    }
    if (path === '/api/v3/user' || path === '/api/v4/user') {
      const login = token === undefined ? undefined : options.logins[token];
      if (!login) return json(401, { message: 'Bad credentials' });
      return json(200, { id: 1, login, username: login, name: login, email: null });
    }
    const repository = /^\/(.+?)\.git\//.exec(path)?.[1] ?? '';
    const readers = options.readers[repository];
    const byApp = options.app?.reads(token, repository) ?? false;
    if (readers && !(token && readers.includes(token)) && !byApp) {
      incoming.resume();
      response.writeHead(401, { 'WWW-Authenticate': 'Basic realm="git"' }).end();
      return;
    }
    through(incoming, response);
  });
  return { ...(await inFrontOf(server, git, root)), requests, commits };
}
