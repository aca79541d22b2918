import { readFile, readdir, rm, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { gitAuthFromSecrets } from '../../src/git/auth.ts';
import { GitCache } from '../../src/git/cache.ts';
import { PathEscapeError, pathInside } from '../../src/git/paths.ts';
import { redactCredentials } from '../../src/git/redact.ts';
import { GitError } from '../../src/git/run.ts';
import { GitSourceError, repositoryUrl } from '../../src/git/source.ts';
import { TestRepository, serveGitOverHttp, tempDir } from './support.ts';

let root: string;
let cache: GitCache;
const cleanups: (() => Promise<void>)[] = [];

beforeEach(async () => {
  const temp = await tempDir();
  root = temp.dir;
  cleanups.push(temp.cleanup);
  cache = new GitCache({ dir: join(root, 'cache'), timeoutMs: 20_000 });
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('repositoryUrl', () => {
  it('maps provider sources to their base URLs, which can be configured', () => {
    expect(repositoryUrl('github:acme/tools')).toBe('https://github.com/acme/tools.git');
    expect(repositoryUrl('gitlab:group/sub/tools')).toBe('https://gitlab.com/group/sub/tools.git');
    expect(repositoryUrl('bitbucket:acme/tools.git')).toBe('https://bitbucket.org/acme/tools.git');
    expect(repositoryUrl('github:acme/tools', { github: 'file:///srv/git/' })).toBe('file:///srv/git/acme/tools.git');
  });

  it('takes Git URLs as they are and refuses anything else with a clear message', () => {
    for (const url of ['https://host/x.git', 'ssh://git@host/x', 'git@host:acme/x.git', 'file:///tmp/x.git']) {
      expect(repositoryUrl(url)).toBe(url);
    }
    expect(() => repositoryUrl('github:acme')).toThrow(GitSourceError);
    expect(() => repositoryUrl('github:acme/../etc')).toThrow(/github:<owner>\/<repo>/);
    expect(() => repositoryUrl('github:a/b/c')).toThrow(GitSourceError);
    expect(() => repositoryUrl('/etc/passwd')).toThrow(/not a repository/);
    expect(() => repositoryUrl('svn:acme/tools')).toThrow(GitSourceError);
  });
});

describe('GitCache', () => {
  it('resolves the default branch, a branch, an annotated tag and a full SHA', async () => {
    const repo = await TestRepository.create(root, 'acme/tools');
    const first = await repo.commit({ 'a.txt': 'one' });
    await repo.tag('v1');
    const second = await repo.commit({ 'a.txt': 'two' });
    const feature = await repo.commit({ 'b.txt': 'feature' }, 'feature work', 'feature');

    expect(await cache.resolve(repo.url, null)).toBe(second);
    expect(await cache.resolve(repo.url, 'main')).toBe(second);
    expect(await cache.resolve(repo.url, 'feature')).toBe(feature);
    expect(await cache.resolve(repo.url, 'v1')).toBe(first);
    expect(await cache.resolve(repo.url, 'refs/tags/v1')).toBe(first);
    expect(await cache.resolve(repo.url, first.toUpperCase())).toBe(first);
  });

  it('checks out the files of a commit, without Git metadata', async () => {
    const repo = await TestRepository.create(root, 'acme/tools');
    const sha = await repo.commit({ 'plugin/skills/x/SKILL.md': 'skill', 'README.md': 'readme' });
    const checkout = await cache.checkout(repo.url, 'main');
    expect(checkout).toEqual({ dir: join(root, 'cache', 'commits', sha), sha, url: repo.url, ref: 'main' });
    expect(await readFile(join(checkout.dir, 'plugin/skills/x/SKILL.md'), 'utf8')).toBe('skill');
    expect((await readdir(checkout.dir)).sort()).toEqual(['README.md', 'plugin']);
  });

  it('re-resolves a moving branch each time; a commit is fetched once and then served from the cache', async () => {
    const repo = await TestRepository.create(root, 'acme/tools');
    const first = await repo.commit({ 'v.txt': '1' });
    const before = await cache.checkout(repo.url, 'main');
    const second = await repo.commit({ 'v.txt': '2' });
    const after = await cache.checkout(repo.url, 'main');
    expect([before.sha, after.sha]).toEqual([first, second]);
    expect(await readFile(join(before.dir, 'v.txt'), 'utf8')).toBe('1');
    expect(await readFile(join(after.dir, 'v.txt'), 'utf8')).toBe('2');

    // The remote is gone: a pinned commit that was fetched before still checks out, from the cache.
    await rm(repo.bare, { recursive: true, force: true });
    const pinned = await cache.checkout(repo.url, first);
    expect(pinned.dir).toBe(before.dir);
    await expect(cache.checkout(repo.url, 'main')).rejects.toThrow(GitError);
  });

  it('fetches a commit that no branch points to any more, by its SHA', async () => {
    const repo = await TestRepository.create(root, 'acme/tools');
    const old = await repo.commit({ 'v.txt': 'old' });
    await repo.commit({ 'v.txt': 'new' });
    const checkout = await cache.checkout(repo.url, old);
    expect(await readFile(join(checkout.dir, 'v.txt'), 'utf8')).toBe('old');
  });

  it('shares one fetch between concurrent checkouts of the same commit', async () => {
    const repo = await TestRepository.create(root, 'acme/tools');
    const sha = await repo.commit({ 'v.txt': '1' });
    const checkouts = await Promise.all([1, 2, 3].map(() => cache.checkout(repo.url, sha)));
    expect(new Set(checkouts.map((checkout) => checkout.dir)).size).toBe(1);
    expect(await readdir(join(root, 'cache', 'commits'))).toEqual([sha]);
    expect(await readdir(join(root, 'cache', 'tmp'))).toEqual([]);
  });

  it('loads through a configured provider base URL', async () => {
    const repo = await TestRepository.create(join(root, 'remotes'), 'acme/tools');
    const sha = await repo.commit({ 'x.txt': 'x' });
    const provided = new GitCache({ dir: join(root, 'cache2'), providers: { github: `file://${root}/remotes` } });
    const checkout = await provided.checkout('github:acme/tools', null);
    expect(checkout.sha).toBe(sha);
    expect(checkout.url).toBe(`file://${root}/remotes/acme/tools.git`);
  });

  it('names what is missing: an unknown ref, an abbreviated SHA, a repository that does not exist', async () => {
    const repo = await TestRepository.create(root, 'acme/tools');
    const sha = await repo.commit({ 'x.txt': 'x' });
    await expect(cache.resolve(repo.url, 'nope')).rejects.toThrow(`${repo.url} has no branch or tag 'nope'`);
    await expect(cache.resolve(repo.url, sha.slice(0, 10))).rejects.toThrow(/full 40-character SHA/);
    await expect(cache.checkout(`file://${root}/missing.git`, null)).rejects.toThrow(GitError);
  });
});

describe('private repositories over HTTP', () => {
  it('needs the credential: refused without it, fetched with the provider token from the secrets', async () => {
    const repo = await TestRepository.create(join(root, 'remotes'), 'acme/private');
    const sha = await repo.commit({ 'secret-plugin.txt': 'inside' });
    const server = await serveGitOverHttp(join(root, 'remotes'), { username: 'x-access-token', password: 'tok-123' });
    cleanups.push(server.close);
    const providers = { github: server.url };
    const provided = new GitCache({ dir: join(root, 'cache'), providers, timeoutMs: 20_000 });

    await expect(provided.checkout('github:acme/private', null)).rejects.toThrow(GitError);
    const auth = gitAuthFromSecrets(
      repositoryUrl('github:acme/private', providers),
      { GITHUB_TOKEN: 'tok-123' },
      providers,
    );
    expect(auth).toEqual({ username: 'x-access-token', password: 'tok-123' });
    const checkout = await provided.checkout('github:acme/private', null, auth);
    expect(checkout.sha).toBe(sha);
    expect(server.requests.some((request) => request.authorized)).toBe(true);
  });

  it('moves credentials out of a URL: they are used, and never shown in the checkout or in errors', async () => {
    const repo = await TestRepository.create(join(root, 'remotes'), 'acme/private');
    await repo.commit({ 'a.txt': 'a' });
    const server = await serveGitOverHttp(join(root, 'remotes'), { username: 'bob', password: 's3cr3t' });
    cleanups.push(server.close);
    const withCredentials = server.url.replace('http://', 'http://bob:s3cr3t@');
    const checkout = await cache.checkout(`${withCredentials}/acme/private.git`, 'main');
    expect(checkout.url).toBe(`${server.url}/acme/private.git`);

    const error = await cache.resolve(`${withCredentials}/acme/private.git`, 'nope').catch((caught) => caught);
    expect(error).toBeInstanceOf(GitError);
    expect(String(error.message)).not.toContain('s3cr3t');
    const wrong = await cache
      .resolve(`${server.url.replace('http://', 'http://bob:wrong-s3cr3t@')}/acme/private.git`, null)
      .catch((caught) => caught);
    expect(wrong).toBeInstanceOf(GitError);
    expect(String(wrong.message)).not.toContain('wrong-s3cr3t');
  });

  it('picks the token by host and falls back to GIT_TOKEN; no credential for other transports', () => {
    expect(gitAuthFromSecrets('https://gitlab.com/a/b.git', { GITLAB_TOKEN: 'g' })).toEqual({
      username: 'oauth2',
      password: 'g',
    });
    expect(gitAuthFromSecrets('https://git.example.com/a/b.git', { GITHUB_TOKEN: 'x', GIT_TOKEN: 't' })).toEqual({
      username: 'git',
      password: 't',
    });
    expect(gitAuthFromSecrets('https://git.example.com/a.git', { GIT_TOKEN: 't', GIT_USERNAME: 'me' })?.username).toBe(
      'me',
    );
    expect(gitAuthFromSecrets('https://github.com/a/b.git', {})).toBeUndefined();
    expect(gitAuthFromSecrets('file:///srv/a.git', { GIT_TOKEN: 't' })).toBeUndefined();
  });

  it('redacts credentials of every URL in a text', () => {
    expect(redactCredentials('fatal: https://u:p@h/x.git and http://tok@h2/y failed')).toBe(
      'fatal: https://***@h/x.git and http://***@h2/y failed',
    );
  });
});

describe('pathInside', () => {
  it('accepts paths inside the root and refuses escapes, absolute paths and symbolic links out', async () => {
    const repo = await TestRepository.create(root, 'acme/mono');
    await repo.commit({ 'plugins/a/plugin.json': '{}' });
    const { dir } = await cache.checkout(repo.url, null);
    expect(await pathInside(dir, 'plugins/a')).toBe(join(dir, 'plugins/a'));
    expect(await pathInside(dir, null)).toBe(dir);
    expect(await pathInside(dir, './plugins/../plugins/a')).toBe(join(dir, 'plugins/a'));
    await expect(pathInside(dir, '../other')).rejects.toThrow(PathEscapeError);
    await expect(pathInside(dir, 'plugins/../../x')).rejects.toThrow(/outside the repository/);
    await expect(pathInside(dir, '/etc')).rejects.toThrow(/relative/);
    await symlink(root, join(dir, 'out'));
    await expect(pathInside(dir, 'out/cache')).rejects.toThrow(/symbolic link/);
  });
});

describe('Git errors', () => {
  it("keep git's fatal line, which says what went wrong", async () => {
    const error = await cache.resolve(`file://${root}/missing.git`, null).catch((caught) => caught);
    expect(error).toBeInstanceOf(GitError);
    expect(error.message).toMatch(/^fatal: .*missing\.git.* does not appear to be a git repository/);
  });
});
