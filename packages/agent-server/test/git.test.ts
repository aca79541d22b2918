import { execFileSync } from 'node:child_process';
import { mkdir, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { call } from './support/http.ts';
import { tempDirPerFile, testServerPerFile } from './support/shared-server.ts';

type Json = Record<string, unknown>;
const KEY = 'git-key';
const headers = { 'X-Session-API-Key': KEY };

const workspace = tempDirPerFile('bosun-git-ws-');
const repo = join(workspace, 'repo');
let firstCommit: string;

const git = (...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=T', '-c', 'user.email=t@example.com', ...args], { cwd: repo }).toString();

beforeAll(async () => {
  await mkdir(join(repo, 'sub'), { recursive: true });
  git('init', '-q', '-b', 'main');
  await writeFile(join(repo, 'kept.txt'), 'kept\n');
  await writeFile(join(repo, 'edited.txt'), 'before\n');
  await writeFile(join(repo, 'deleted.txt'), 'gone soon\n');
  await writeFile(join(repo, 'moved.txt'), 'a file that is moved, long enough to be recognized\n');
  await writeFile(join(repo, 'sub', 'inner.txt'), 'inner\n');
  git('add', '.');
  git('commit', '-q', '-m', 'first');
  firstCommit = git('rev-parse', 'HEAD').trim();
  await writeFile(join(repo, 'edited.txt'), 'after\n');
  await unlink(join(repo, 'deleted.txt'));
  git('mv', 'moved.txt', 'renamed.txt');
  await writeFile(join(repo, 'untracked.txt'), 'new\n');
  await writeFile(join(repo, 'sub', 'inner.txt'), 'inner changed\n');
});
const server = testServerPerFile({ workspaceRoot: workspace, sessionApiKeys: [KEY] });

const get = <T = Json>(path: string, query: Record<string, string>) =>
  call<T>(server.url, `${path}?${new URLSearchParams(query)}`, { headers });

describe('GET /api/git/changes', () => {
  it('lists added, deleted, updated and moved files against HEAD', async () => {
    const reply = await get<{ status: string; path: string }[]>('/api/git/changes', { path: repo });
    expect(reply.status, reply.text).toBe(200);
    expect([...reply.body].sort((a, b) => a.path.localeCompare(b.path))).toEqual([
      { status: 'DELETED', path: 'deleted.txt' },
      { status: 'UPDATED', path: 'edited.txt' },
      { status: 'MOVED', path: 'renamed.txt' },
      { status: 'UPDATED', path: 'sub/inner.txt' },
      { status: 'ADDED', path: 'untracked.txt' },
    ]);
  });

  it('limits the list to a subdirectory, relative to it', async () => {
    const reply = await get('/api/git/changes', { path: join(repo, 'sub') });
    expect(reply.body).toEqual([{ status: 'UPDATED', path: 'inner.txt' }]);
  });

  it('is [] outside a repository, and refuses paths outside the workspace or an unknown ref', async () => {
    const plain = join(workspace, 'plain');
    await mkdir(plain, { recursive: true });
    expect((await get('/api/git/changes', { path: plain })).body).toEqual([]);
    expect((await get('/api/git/changes', { path: '/' })).status).toBe(403);
    expect((await get('/api/git/changes', { path: join(workspace, '..') })).status).toBe(403);
    const unknown = await get<Json>('/api/git/changes', { path: repo, ref: 'no-such-branch' });
    expect(unknown.status).toBe(422);
    expect((unknown.body.detail as Json[])[0]).toMatchObject({ loc: ['query', 'ref'] });
    expect((await get('/api/git/changes', { path: repo, ref: '--output=/tmp/x' })).status).toBe(422);
    expect((await get('/api/git/changes', { path: 'repo' })).status).toBe(422);
  });
});

describe('GET /api/git/diff', () => {
  it('gives a file at HEAD and on disk; null for a side where it does not exist', async () => {
    expect((await get('/api/git/diff', { path: join(repo, 'edited.txt') })).body).toEqual({
      original: 'before\n',
      modified: 'after\n',
    });
    expect((await get('/api/git/diff', { path: join(repo, 'untracked.txt') })).body).toEqual({
      original: null,
      modified: 'new\n',
    });
    expect((await get('/api/git/diff', { path: join(repo, 'deleted.txt') })).body).toEqual({
      original: 'gone soon\n',
      modified: null,
    });
  });

  it('gives a file before and after a commit', async () => {
    const reply = await get('/api/git/diff', { path: join(repo, 'kept.txt'), commit: firstCommit });
    expect(reply.body).toEqual({ original: null, modified: 'kept\n' });
  });

  it('answers 422 for a bad commit or a directory, 403 outside the workspace, 401 without the key', async () => {
    expect((await get('/api/git/diff', { path: join(repo, 'kept.txt'), commit: 'xyz' })).status).toBe(422);
    expect((await get('/api/git/diff', { path: repo })).status).toBe(422);
    expect((await get('/api/git/diff', { path: '/etc/passwd' })).status).toBe(403);
    for (const path of ['/api/git/changes', '/api/git/diff']) {
      const reply = await call(server.url, `${path}?path=${encodeURIComponent(repo)}`);
      expect(reply.status).toBe(401);
      expect(reply.body).toEqual({ detail: 'Unauthorized' });
    }
  });
});
