import { join } from 'node:path';
import {
  type FetchedPlugin,
  type GitCache,
  fetchMarketplacePlugins,
  inspectMarketplace,
  pluginInspection,
  readMarketplace,
} from '@bosun/sources';
import { beforeEach, describe, expect, it } from 'vitest';
import { TestRepository, scratchWithCache } from '../git/support.ts';
import { OFFICIAL_MARKETPLACE, SKILLS_MARKETPLACE } from './fixtures.ts';

let dir: string;
let cache: GitCache;
beforeEach(async () => {
  ({ dir, cache } = await scratchWithCache('bosun-claude-marketplace-'));
});

async function marketplace(name: string, files: Record<string, string>) {
  const repo = await TestRepository.create(join(dir, 'remotes'), name);
  await repo.commit(files);
  return { name: 'market', source: repo.url, ref: 'main', repo_path: null, auto_load: true as const };
}

const messages = (problems: { severity: string; path: string | null; message: string }[]) =>
  problems.map((p) => `${p.severity} ${p.path ?? '-'}: ${p.message}`);

describe('a marketplace shaped like anthropics/skills (entries at the root, each listing its skills)', () => {
  it('loads exactly the skills each entry lists, without warnings about the others', async () => {
    const registration = await marketplace('anthropics/skills', SKILLS_MARKETPLACE);
    const { fetched, failures } = await fetchMarketplacePlugins(registration, cache, () => undefined);
    expect(failures).toEqual([]);
    expect(fetched.map((f) => [f.resolved.name, f.plugin?.skills.map((s) => s.name)])).toEqual([
      ['document-skills', ['xlsx', 'pdf']],
      ['example-skills', ['skill-creator', 'mcp-builder', 'webapp-testing']],
      ['claude-api', ['claude-api']],
    ]);
    for (const f of fetched) expect(messages(f.resolved.problems)).toEqual([]);
  });

  it('inspection lists the same, and no problem', async () => {
    const registration = await marketplace('anthropics/skills', SKILLS_MARKETPLACE);
    const listing = await inspectMarketplace(await readMarketplace(registration, cache), cache, () => undefined);
    expect(listing.entries.map((e) => [e.name, e.contents?.skills, messages(e.problems)])).toEqual([
      ['document-skills', ['document-skills:xlsx', 'document-skills:pdf'], []],
      [
        'example-skills',
        ['example-skills:skill-creator', 'example-skills:mcp-builder', 'example-skills:webapp-testing'],
        [],
      ],
      ['claude-api', ['claude-api:claude-api'], []],
    ]);
  });
});

describe('a marketplace shaped like anthropics/claude-plugins-official', () => {
  const LSP_WARNING =
    "warning .claude-plugin/marketplace.json: 'lspServers' is not supported by Bosun (LSP servers); ignored";

  it('loads an entry that holds only LSP servers, with a warning instead of a failure', async () => {
    const registration = await marketplace('anthropics/claude-plugins-official', OFFICIAL_MARKETPLACE);
    const { fetched, failures } = await fetchMarketplacePlugins(registration, cache, () => undefined);
    expect(failures).toEqual([]);
    const lsp = fetched.find((f) => f.resolved.name === 'typescript-lsp');
    expect(lsp?.plugin).not.toBeNull();
    expect(messages(lsp?.resolved.problems ?? [])).toEqual([LSP_WARNING]);
  });

  it('inspection says what loading says, entry by entry', async () => {
    const registration = await marketplace('anthropics/claude-plugins-official', OFFICIAL_MARKETPLACE);
    const { fetched } = await fetchMarketplacePlugins(registration, cache, () => undefined);
    const listing = await inspectMarketplace(await readMarketplace(registration, cache), cache, () => undefined);
    expect(listing.entries.map((e) => [e.name, messages(e.problems)])).toEqual(
      fetched.map((f) => [f.resolved.name, messages(f.resolved.problems)]),
    );
    expect(listing.entries.map((e) => [e.name, e.contents?.unsupported])).toEqual([
      ['typescript-lsp', ['lspServers']],
      ['commit-guard', []],
    ]);
  });
});

describe('inspecting entries in other repositories', () => {
  it('reads them only when asked, through the same fetch as loading', async () => {
    const other = await TestRepository.create(join(dir, 'remotes'), 'acme/lsp');
    const sha = await other.commit({ '.lsp.json': JSON.stringify({ go: { command: 'gopls' } }) });
    const registration = await marketplace('acme/market', {
      '.claude-plugin/marketplace.json': JSON.stringify({
        name: 'acme',
        owner: { name: 'Acme' },
        plugins: [{ name: 'go-lsp', source: { source: 'url', url: other.url, sha } }],
      }),
    });
    const read = await readMarketplace(registration, cache);
    const local = await inspectMarketplace(read, cache, () => undefined);
    expect(local.entries[0]).not.toHaveProperty('contents');
    expect(local.entries[0]?.problems).toEqual([]);
    const fetched = await inspectMarketplace(read, cache, () => undefined, { remote: true });
    expect(fetched.entries[0]?.contents).toMatchObject({ plugin: 'go-lsp', skills: [], unsupported: ['lspServers'] });
    expect(messages(fetched.entries[0]?.problems ?? [])).toEqual([
      "warning .lsp.json: 'lspServers' is not supported by Bosun (LSP servers); ignored",
    ]);
  });
});

describe("a Claude Code plugin's hook with `if`", () => {
  // Which calls the rule selects is the agent's: packages/agent/test/hooks/plugin-hooks.test.ts.
  it('keeps its matcher and its rule, and lists them', async () => {
    const registration = await marketplace('anthropics/claude-plugins-official', OFFICIAL_MARKETPLACE);
    const { fetched } = await fetchMarketplacePlugins(
      { ...registration, auto_load: ['commit-guard'] },
      cache,
      () => undefined,
    );
    const guard = fetched[0];
    expect(messages(guard?.resolved.problems ?? [])).toEqual([]);
    expect(pluginInspection(guard as FetchedPlugin).hooks).toEqual([
      {
        event: 'PreToolUse',
        matcher: 'Bash',
        if: 'Bash(git commit:*)',
        command: `sh "${guard?.plugin?.root}/hooks/check.sh"`,
      },
    ]);
    const listing = await inspectMarketplace(await readMarketplace(registration, cache), cache, () => undefined);
    expect(listing.entries.find((e) => e.name === 'commit-guard')?.contents?.hooks).toEqual([
      'PreToolUse [Bash] if Bash(git commit:*)',
    ]);
  });
});
