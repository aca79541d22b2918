import { join } from 'node:path';
import {
  type GitCache,
  autoLoadSelection,
  fetchMarketplacePlugins,
  marketplaceListing,
  parseMarketplace,
  readMarketplace,
} from '@bosun/sources';
import { beforeEach, describe, expect, it } from 'vitest';

import { TestRepository, scratchWithCache } from '../git/support.ts';
import { versionedPlugin } from '../plugins/fixtures.ts';

const SHA = 'a'.repeat(40);

describe('parsing marketplace.json', () => {
  const marketplace = {
    name: 'acme-tools',
    owner: { name: 'Acme' },
    metadata: { description: 'Tools of Acme', pluginRoot: './plugins' },
    plugins: [
      { name: 'local', source: './plugins/local', description: 'In this repository' },
      { name: 'bare', source: 'bare' },
      { name: 'gh', source: { source: 'github', repo: 'acme/gh', ref: 'v1', sha: SHA } },
      { name: 'gh-ref', source: { source: 'github', repo: 'acme/gh', ref: 'main', path: 'sub' } },
      { name: 'url', source: { source: 'url', url: 'https://git.example.invalid/x.git', ref: 'dev' } },
      { name: 'subdir', source: { source: 'git-subdir', url: 'acme/mono', path: 'tools/y', sha: SHA } },
      { name: 'npm', source: { source: 'npm', package: '@acme/z' } },
      { name: 'archive', source: { source: 'archive', url: 'https://example.invalid/a.zip' } },
      { name: 'weird', source: { source: 'ftp' } },
      { name: 'escape', source: '../elsewhere' },
      { name: 'short-sha', source: { source: 'github', repo: 'acme/gh', sha: 'abc123' } },
      { name: 'no-path', source: { source: 'git-subdir', url: 'https://git.example.invalid/m.git' } },
      { name: 'local', source: './again' },
      { source: './nameless' },
    ],
  };

  it('resolves every Git-based source type and lists what is wrong with each entry', () => {
    const parsed = parseMarketplace(marketplace, '.claude-plugin/marketplace.json');
    expect(parsed).toMatchObject({ name: 'acme-tools', owner: 'Acme', description: 'Tools of Acme' });
    const byName = (name: string, index = 0) => parsed.entries.filter((e) => e.name === name)[index];
    expect(byName('local')).toMatchObject({ source: { type: 'relative', path: 'plugins/local' }, problems: [] });
    expect(byName('bare')?.source).toEqual({ type: 'relative', path: 'plugins/bare' });
    expect(byName('gh')?.source).toEqual({ type: 'git', source: 'github:acme/gh', ref: SHA, path: null });
    expect(byName('gh-ref')?.source).toEqual({ type: 'git', source: 'github:acme/gh', ref: 'main', path: 'sub' });
    expect(byName('url')?.source).toEqual({
      type: 'git',
      source: 'https://git.example.invalid/x.git',
      ref: 'dev',
      path: null,
    });
    expect(byName('subdir')?.source).toEqual({ type: 'git', source: 'github:acme/mono', ref: SHA, path: 'tools/y' });
    const problem = (name: string, index = 0) => byName(name, index)?.problems.map((p) => p.message);
    expect(problem('npm')).toEqual(["source type 'npm' is not a Git repository; Bosun loads only Git-based plugins"]);
    expect(problem('archive')?.[0]).toMatch(/'archive' is not a Git repository/);
    expect(problem('weird')?.[0]).toMatch(/unknown source type 'ftp'/);
    expect(problem('escape')).toEqual(["source '../elsewhere' must not contain '..'"]);
    expect(problem('short-sha')).toEqual(["'sha' must be a full 40-character commit SHA"]);
    expect(problem('no-path')).toEqual(["a 'git-subdir' source needs 'path'"]);
    expect(problem('local', 1)).toEqual(["another entry is named 'local'; skipped"]);
    for (const name of ['npm', 'archive', 'weird', 'escape', 'short-sha', 'no-path']) {
      expect(byName(name)?.source).toBeNull();
    }
    expect(parsed.problems.map((p) => p.message)).toEqual(["an entry needs a 'name'; skipped"]);
  });

  it('selects what auto_load names, and says which names the marketplace does not list', () => {
    const { entries } = parseMarketplace(marketplace, 'm.json');
    expect(autoLoadSelection(entries, false).selected).toEqual([]);
    expect(autoLoadSelection(entries, true).selected).toHaveLength(entries.length);
    const some = autoLoadSelection(entries, ['gh', 'missing']);
    expect(some.selected.map((e) => e.name)).toEqual(['gh']);
    expect(some.problems.map((p) => p.message)).toEqual([
      "auto_load names 'missing', which the marketplace does not list",
    ]);
  });
});

describe('marketplaces in Git repositories', () => {
  let dir: string;
  let cache: GitCache;
  beforeEach(async () => {
    ({ dir, cache } = await scratchWithCache('bosun-marketplace-'));
  });

  it('lists entries resolved against the marketplace commit, and loads what auto_load selects', async () => {
    const remotes = join(dir, 'remotes');
    const other = await TestRepository.create(remotes, 'acme/other');
    const otherSha = await other.commit(versionedPlugin('other'));
    const repo = await TestRepository.create(remotes, 'acme/market');
    const files: Record<string, string> = {
      'market/.plugin/marketplace.json': JSON.stringify({
        name: 'acme',
        owner: { name: 'Acme' },
        plugins: [
          { name: 'versioned', source: './plugins/versioned' },
          { name: 'remote', source: { source: 'url', url: other.url, sha: otherSha } },
          {
            name: 'inline',
            source: './plugins/inline',
            strict: false,
            commands: ['./cmds/hi.md'],
            description: 'Defined by its entry',
          },
          { name: 'gone', source: { source: 'npm', package: 'x' } },
        ],
      }),
      'market/plugins/inline/cmds/hi.md': 'Say hi.\n',
      'market/plugins/inline/.claude-plugin/plugin.json': JSON.stringify({ name: 'inline', commands: './other' }),
    };
    for (const [path, content] of Object.entries(versionedPlugin('local')))
      files[`market/plugins/versioned/${path}`] = content;
    const sha = await repo.commit(files);
    const registration = { name: 'acme', source: repo.url, ref: 'main', repo_path: 'market' };

    const read = await readMarketplace(registration, cache);
    const listing = marketplaceListing(read);
    expect(listing).toMatchObject({
      name: 'acme',
      owner: 'Acme',
      manifest: '.plugin/marketplace.json',
      resolved_ref: sha,
    });
    expect(listing.entries.map(({ name, source, ref, repo_path }) => ({ name, source, ref, repo_path }))).toEqual([
      { name: 'versioned', source: repo.url, ref: sha, repo_path: 'market/plugins/versioned' },
      { name: 'remote', source: other.url, ref: otherSha, repo_path: null },
      { name: 'inline', source: repo.url, ref: sha, repo_path: 'market/plugins/inline' },
      { name: 'gone', source: null, ref: null, repo_path: null },
    ]);
    expect(listing.entries[3]?.problems).toHaveLength(1);

    // A later commit to the branch does not change what this marketplace reading loads.
    await repo.commit(versionedPlugin('newer'));
    const loaded = await fetchMarketplacePlugins({ ...registration, auto_load: true }, cache, () => undefined);
    expect(loaded.fetched.map((f) => f.resolved.name)).toEqual(['versioned', 'versioned', 'inline']);
    expect(loaded.fetched.map((f) => f.resolved.resolved_ref)).toEqual([
      expect.any(String),
      otherSha,
      expect.any(String),
    ]);
    expect(loaded.fetched[0]?.resolved).toMatchObject({ marketplace: 'acme', repo_path: 'market/plugins/versioned' });
    const inline = loaded.fetched[2];
    expect(inline?.plugin?.commands.map((c) => c.name)).toEqual(['inline:hi']);
    expect(inline?.resolved.problems.map((p) => p.message)).toContain(
      'declares commands but the marketplace entry is strict: false; ignored',
    );
    expect(loaded.failures).toEqual([
      expect.objectContaining({
        marketplace: 'acme',
        name: 'gone',
        problems: [expect.objectContaining({ severity: 'error' })],
      }),
    ]);

    const none = await fetchMarketplacePlugins({ ...registration, auto_load: ['nothing'] }, cache, () => undefined);
    expect(none.fetched).toEqual([]);
    expect(none.failures[0]?.problems[0]?.message).toMatch(/auto_load names 'nothing'/);

    const missing = await readMarketplace({ source: other.url }, cache);
    expect(missing.parsed.problems[0]?.message).toBe(
      'no marketplace.json in .claude-plugin/, .codex-plugin/, .plugin/',
    );
  });
});
