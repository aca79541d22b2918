import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { GitCache, fetchPlugin, gitAuthFromSecrets, pluginReferenceProblems } from '@bosun/sources';
import { beforeEach, describe, expect, it } from 'vitest';

import { TestRepository, scratchWithCache, serveGitOverHttp } from '../git/support.ts';
import { FULL_PLUGIN, versionedPlugin } from './fixtures.ts';

let dir: string;
let cache: GitCache;
let remotes: string;
beforeEach(async () => {
  ({ dir, cache } = await scratchWithCache('bosun-plugin-fetch-', (dir) => ({
    providers: { github: `file://${join(dir, 'remotes')}` },
  })));
  remotes = join(dir, 'remotes');
});

const skillText = async (fetched: Awaited<ReturnType<typeof fetchPlugin>>) =>
  readFile(join(fetched.plugin?.skills[0]?.dir ?? '', 'SKILL.md'), 'utf8');

describe('fetching plugins from Git repositories', () => {
  it('re-resolves a moving branch, but a pinned commit keeps loading the same code', async () => {
    const repo = await TestRepository.create(remotes, 'acme/versioned');
    const first = await repo.commit(versionedPlugin('v1'));
    const before = await fetchPlugin({ source: repo.url, ref: 'main' }, { cache });
    expect(before.resolved).toEqual({
      source: repo.url,
      original_ref: 'main',
      resolved_ref: first,
      repo_path: null,
      marketplace: null,
      name: 'versioned',
      problems: [],
    });
    const second = await repo.commit(versionedPlugin('v2'));
    const after = await fetchPlugin({ source: repo.url, ref: 'main' }, { cache });
    expect(after.resolved.resolved_ref).toBe(second);
    expect(await skillText(after)).toContain('Hello from v2.');
    // What a restart does: the recorded commit, not the branch's new head.
    const again = await fetchPlugin({ source: repo.url, ref: 'main' }, { cache, pinned: first });
    expect(again.resolved).toMatchObject({ original_ref: 'main', resolved_ref: first });
    expect(await skillText(again)).toContain('Hello from v1.');
  });

  it('loads a commit named by SHA and a tag, through a provider base URL', async () => {
    const repo = await TestRepository.create(remotes, 'acme/tools');
    const first = await repo.commit(versionedPlugin('v1'));
    await repo.tag('v1.0.0');
    await repo.commit(versionedPlugin('v2'));
    const pinned = await fetchPlugin({ source: 'github:acme/tools', ref: first }, { cache });
    expect(pinned.resolved).toMatchObject({ source: 'github:acme/tools', resolved_ref: first, problems: [] });
    expect(await skillText(pinned)).toContain('v1');
    const tagged = await fetchPlugin({ source: 'github:acme/tools', ref: 'v1.0.0' }, { cache });
    expect(tagged.resolved.resolved_ref).toBe(first);
    const missing = await fetchPlugin({ source: 'github:acme/tools', ref: 'no-such-branch' }, { cache });
    expect(missing).toMatchObject({ plugin: null, resolved: { resolved_ref: null } });
    expect(missing.resolved.problems[0]?.message).toMatch(/has no branch or tag 'no-such-branch'/);
  });

  it('loads a plugin from a directory of a monorepo, and refuses a repo_path that leaves the repository', async () => {
    const repo = await TestRepository.create(remotes, 'acme/mono');
    const files: Record<string, string> = { 'README.md': 'mono\n' };
    for (const [path, content] of Object.entries(FULL_PLUGIN)) files[`plugins/review/${path}`] = content;
    await repo.commit(files);
    const fetched = await fetchPlugin({ source: repo.url, repo_path: 'plugins/review' }, { cache });
    expect(fetched.resolved).toMatchObject({ repo_path: 'plugins/review', name: 'review-kit' });
    expect(fetched.plugin?.root.endsWith('/plugins/review')).toBe(true);
    expect(fetched.plugin?.hooks?.PreToolUse?.[0]?.hooks[0]?.command).toContain(
      `${fetched.plugin?.root}/hooks/guard.sh`,
    );

    const escaping = await fetchPlugin({ source: repo.url, repo_path: '../../..' }, { cache });
    expect(escaping.plugin).toBeNull();
    expect(escaping.resolved.problems).toEqual([
      { severity: 'error', path: null, message: "repo_path: '../../..' leads outside the repository" },
    ]);
    expect(pluginReferenceProblems({ source: repo.url, repo_path: 'a/../../b' }, ['body', 'plugins', 0])).toEqual([
      { loc: ['body', 'plugins', 0, 'repo_path'], msg: "'a/../../b' must not contain '..'", type: 'value_error' },
    ]);
    expect(pluginReferenceProblems({ source: '/abs/path' }, ['p'])[0]?.loc).toEqual(['p', 'source']);
    const missing = await fetchPlugin({ source: repo.url, repo_path: 'plugins/none' }, { cache });
    expect(missing.resolved.problems).toEqual([
      { severity: 'error', path: null, message: 'the plugin directory does not exist' },
    ]);
  });

  it('fetches a private repository with the credential of the conversation secrets, and never shows it', async () => {
    const repo = await TestRepository.create(remotes, 'acme/private');
    const sha = await repo.commit(versionedPlugin('private'));
    const server = await serveGitOverHttp(remotes, { username: 'x-access-token', password: 's3cret-token' });
    try {
      const providers = { github: server.url };
      const privateCache = new GitCache({ dir: join(dir, 'private-cache'), providers });
      const source = 'github:acme/private';
      const denied = await fetchPlugin({ source }, { cache: privateCache });
      expect(denied.plugin).toBeNull();
      expect(denied.resolved.problems[0]?.message).toMatch(/^cannot fetch github:acme\/private/);

      const url = `${server.url}/acme/private.git`;
      const auth = gitAuthFromSecrets(url, { GITHUB_TOKEN: 's3cret-token' }, providers);
      const fetched = await fetchPlugin({ source }, { cache: privateCache, auth });
      expect(fetched.resolved).toMatchObject({ resolved_ref: sha, name: 'versioned', problems: [] });

      const inline = `http://x-access-token:s3cret-token@${server.url.slice('http://'.length)}/acme/private.git`;
      const wrong = inline.replace('s3cret-token', 'wrong-token');
      const viaUrl = await fetchPlugin({ source: inline }, { cache: privateCache });
      expect(viaUrl.resolved.resolved_ref).toBe(sha);
      expect(viaUrl.resolved.source).toBe(`http://***@${server.url.slice('http://'.length)}/acme/private.git`);
      const refused = await fetchPlugin({ source: wrong }, { cache: privateCache });
      expect(JSON.stringify(refused.resolved)).not.toContain('wrong-token');
      expect(refused.resolved.problems[0]?.message).toMatch(/cannot fetch/);
    } finally {
      await server.close();
    }
  });
});
