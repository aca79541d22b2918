import { join } from 'node:path';
import { hooksFor, normalizeHookConfig } from '@bosun/agent';
import { type GitCache, fetchMarketplacePlugins } from '@bosun/sources';
import { beforeEach, describe, expect, it } from 'vitest';
import { TestRepository, scratchWithCache } from '../../../sources/test/git/support.ts';
import { OFFICIAL_MARKETPLACE } from '../../../sources/test/marketplaces/fixtures.ts';

let dir: string;
let cache: GitCache;
beforeEach(async () => {
  ({ dir, cache } = await scratchWithCache('bosun-plugin-hooks-'));
});

describe("a Claude Code plugin's hook with `if`", () => {
  it('runs for `git commit` only (and its Bash matcher selects the terminal)', async () => {
    const repo = await TestRepository.create(join(dir, 'remotes'), 'anthropics/claude-plugins-official');
    await repo.commit(OFFICIAL_MARKETPLACE);
    const registration = { name: 'market', source: repo.url, ref: 'main', repo_path: null };
    const { fetched } = await fetchMarketplacePlugins(
      { ...registration, auto_load: ['commit-guard'] },
      cache,
      () => undefined,
    );
    const settings = normalizeHookConfig(fetched[0]?.plugin?.hooks);
    const call = (command: string) => hooksFor(settings, 'PreToolUse', 'terminal', { command }, dir).length;
    expect([call('git commit -m wip'), call('ls -la'), call('git status')]).toEqual([1, 0, 0]);
  });
});
