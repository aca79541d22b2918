import { execFile, spawn } from 'node:child_process';
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { GitCache, type GitCacheOptions } from '@bosun/sources';
import { onTestFinished } from 'vitest';

/**
 * Real Git repositories for tests: bare remotes built from commits written here, and a smart-HTTP server
 * (`git http-backend`) on 127.0.0.1 that can demand Basic credentials, for private repositories.
 */

const exec = promisify(execFile);
const GIT_ENV = {
  ...process.env,
  GIT_AUTHOR_NAME: 'Test',
  GIT_AUTHOR_EMAIL: 'test@example.invalid',
  GIT_COMMITTER_NAME: 'Test',
  GIT_COMMITTER_EMAIL: 'test@example.invalid',
  GIT_CONFIG_NOSYSTEM: '1',
  HOME: tmpdir(),
};

export async function git(cwd: string, ...args: string[]): Promise<string> {
  const { stdout } = await exec('git', args, { cwd, env: GIT_ENV });
  return stdout.trim();
}

/** A temporary directory (real path), removed by the returned cleanup. */
export async function tempDir(prefix = 'bosun-git-'): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await realpath(await mkdtemp(join(tmpdir(), prefix)));
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

/**
 * A temporary directory for the current test (removed when it ends) with a GitCache in its `cache` folder, its
 * other options made from the directory.
 */
export async function scratchWithCache(
  prefix: string,
  options: (dir: string) => Omit<GitCacheOptions, 'dir'> = () => ({}),
): Promise<{ dir: string; cache: GitCache }> {
  const { dir, cleanup } = await tempDir(prefix);
  onTestFinished(cleanup);
  return { dir, cache: new GitCache({ dir: join(dir, 'cache'), ...options(dir) }) };
}

/**
 * A bare repository at `<root>/<name>.git` (e.g. `acme/tools` -> `<root>/acme/tools.git`) with a work tree
 * beside it to make commits from. Default branch `main`.
 */
export class TestRepository {
  readonly bare: string;
  readonly work: string;

  private constructor(root: string, name: string) {
    this.bare = join(root, `${name}.git`);
    this.work = join(root, '.work', name);
  }

  static async create(root: string, name: string): Promise<TestRepository> {
    const repo = new TestRepository(root, name);
    await mkdir(repo.bare, { recursive: true });
    await git(repo.bare, 'init', '-q', '--bare', '-b', 'main');
    await mkdir(repo.work, { recursive: true });
    await git(repo.work, 'init', '-q', '-b', 'main');
    await git(repo.work, 'remote', 'add', 'origin', repo.bare);
    return repo;
  }

  /** `file://` URL of the bare repository. */
  get url(): string {
    return `file://${this.bare}`;
  }

  /** Writes `files` (path -> content; null deletes), commits them on `branch` and pushes; returns the SHA. */
  async commit(files: Record<string, string | null>, message = 'change', branch = 'main'): Promise<string> {
    const current = await git(this.work, 'rev-parse', '--abbrev-ref', 'HEAD').catch(() => 'main');
    if (current !== branch) {
      const exists = await git(this.work, 'rev-parse', '--verify', '-q', `refs/heads/${branch}`).catch(() => '');
      await git(this.work, 'checkout', '-q', ...(exists ? [branch] : ['-b', branch]));
    }
    for (const [path, content] of Object.entries(files)) {
      const full = join(this.work, path);
      if (content === null) await rm(full, { force: true, recursive: true });
      else {
        await mkdir(dirname(full), { recursive: true });
        await writeFile(full, content);
      }
    }
    await git(this.work, 'add', '-A');
    await git(this.work, 'commit', '-q', '--allow-empty', '-m', message);
    await git(this.work, 'push', '-q', 'origin', branch);
    return git(this.work, 'rev-parse', 'HEAD');
  }

  /** An annotated tag on the current commit of `branch`, pushed. */
  async tag(name: string, branch = 'main'): Promise<void> {
    await git(this.work, 'tag', '-a', name, '-m', name, branch);
    await git(this.work, 'push', '-q', 'origin', name);
  }
}

/**
 * Serves the bare repositories under `root` over Git's smart HTTP protocol on 127.0.0.1. With `credentials`,
 * every request needs them as Basic auth (401 otherwise, as a private repository).
 */
export async function serveGitOverHttp(
  root: string,
  credentials?: { username: string; password: string },
): Promise<{ url: string; requests: { path: string; authorized: boolean }[]; close: () => Promise<void> }> {
  const requests: { path: string; authorized: boolean }[] = [];
  const expected = credentials
    ? `Basic ${Buffer.from(`${credentials.username}:${credentials.password}`).toString('base64')}`
    : undefined;
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    const authorized = !expected || request.headers.authorization === expected;
    requests.push({ path: url.pathname, authorized });
    if (!authorized) {
      response.writeHead(401, { 'WWW-Authenticate': 'Basic realm="git"' }).end();
      return;
    }
    httpBackend(root, url, request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function httpBackend(root: string, url: URL, request: IncomingMessage, response: ServerResponse): void {
  const child = spawn('git', ['http-backend'], {
    env: {
      ...GIT_ENV,
      GIT_PROJECT_ROOT: root,
      GIT_HTTP_EXPORT_ALL: '1',
      REQUEST_METHOD: request.method ?? 'GET',
      PATH_INFO: decodeURIComponent(url.pathname),
      QUERY_STRING: url.search.slice(1),
      CONTENT_TYPE: request.headers['content-type'] ?? '',
      GIT_PROTOCOL: String(request.headers['git-protocol'] ?? ''),
      REMOTE_ADDR: '127.0.0.1',
      HTTP_CONTENT_ENCODING: String(request.headers['content-encoding'] ?? ''),
    },
  });
  request.pipe(child.stdin);
  const chunks: Buffer[] = [];
  child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
  child.on('close', () => {
    const output = Buffer.concat(chunks);
    const split = output.indexOf('\r\n\r\n');
    const head = output.subarray(0, split).toString('latin1');
    let status = 200;
    const headers: Record<string, string> = {};
    for (const line of head.split('\r\n')) {
      const colon = line.indexOf(':');
      const name = line.slice(0, colon).trim();
      const value = line.slice(colon + 1).trim();
      if (name.toLowerCase() === 'status') status = Number.parseInt(value, 10);
      else if (name) headers[name] = value;
    }
    response.writeHead(status, headers).end(output.subarray(split + 4));
  });
}
