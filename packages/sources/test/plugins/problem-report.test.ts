import { join } from 'node:path';
import type { ResolvedPlugin } from '@bosun/protocol';
import { type GitCache, fetchMarketplacePlugins, pluginProblemLines } from '@bosun/sources';
import { beforeEach, describe, expect, it } from 'vitest';
import { TestRepository, scratchWithCache } from '../git/support.ts';
import { closedPort } from '../support/closed-port.ts';

let dir: string;
let cache: GitCache;
beforeEach(async () => {
  ({ dir, cache } = await scratchWithCache('bosun-plugin-problems-'));
});

/** A marketplace of twelve plugins each holding an LSP server (one warning each), and two on a host that is down. */
async function marketplace() {
  const port = await closedPort();
  const local = Array.from({ length: 12 }, (_, i) => `lsp-${i + 1}`);
  const files: Record<string, string> = {
    '.claude-plugin/marketplace.json': JSON.stringify({
      name: 'many',
      owner: { name: 'Acme' },
      plugins: [
        ...local.map((name) => ({ name, source: `./plugins/${name}` })),
        ...['slack', 'linear'].map((name) => ({
          name,
          source: { source: 'url', url: `http://127.0.0.1:${port}/acme/${name}-plugin.git` },
        })),
      ],
    }),
  };
  for (const name of local) files[`plugins/${name}/.lsp.json`] = JSON.stringify({ go: { command: 'gopls' } });
  const repo = await TestRepository.create(join(dir, 'remotes'), 'acme/many');
  await repo.commit(files);
  return { name: 'many', source: repo.url, ref: 'main', repo_path: null, auto_load: true as const };
}

describe('problems of the plugins of a marketplace', () => {
  it('keep the name of a plugin that could not be fetched (its marketplace entry’s)', async () => {
    const { fetched } = await fetchMarketplacePlugins(await marketplace(), cache, () => undefined);
    expect(fetched.map((f) => f.resolved.name)).toEqual([
      ...Array.from({ length: 12 }, (_, i) => `lsp-${i + 1}`),
      'slack',
      'linear',
    ]);
    expect(fetched.slice(12).map((f) => [f.plugin, f.resolved.problems[0]?.severity])).toEqual([
      [null, 'error'],
      [null, 'error'],
    ]);
  });

  it('are said once each, naming the plugin they concern', async () => {
    const { fetched } = await fetchMarketplacePlugins(await marketplace(), cache, () => undefined);
    const lines = pluginProblemLines(fetched.map((f) => f.resolved));
    expect(lines).toHaveLength(14);
    expect(new Set(lines).size).toBe(14);
    expect(lines[0]).toMatch(/^lsp-1 \(.*:plugins\/lsp-1\): warning: \.lsp\.json: 'lspServers' is not supported/);
    expect(lines[13]).toMatch(/^linear \(http:\/\/127\.0\.0\.1:\d+\/acme\/linear-plugin\.git\): error: cannot fetch/);
  });

  it('recorded twice for one plugin are said once', () => {
    const problem = { severity: 'warning' as const, path: null, message: 'entry_command is not a command' };
    const record: ResolvedPlugin = {
      source: 'github:acme/tools',
      original_ref: null,
      resolved_ref: null,
      repo_path: null,
      marketplace: null,
      name: 'tools',
      problems: [problem, problem],
    };
    expect(pluginProblemLines([record, record])).toEqual([
      'tools (github:acme/tools): warning: entry_command is not a command',
    ]);
  });
});
