import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestRepository, tempDir } from '../../sources/test/git/support.ts';
import { OFFICIAL_MARKETPLACE } from '../../sources/test/marketplaces/fixtures.ts';
import { FULL_PLUGIN } from '../../sources/test/plugins/fixtures.ts';
import { runCli } from './io.ts';

let dir: string;
let cleanup: () => Promise<void>;
let repo: TestRepository;
let sha: string;
beforeAll(async () => {
  ({ dir, cleanup } = await tempDir('bosun-cli-plugin-'));
  repo = await TestRepository.create(join(dir, 'remotes'), 'acme/tools');
  const files: Record<string, string> = {
    '.claude-plugin/marketplace.json': JSON.stringify({
      name: 'acme',
      owner: { name: 'Acme' },
      plugins: [
        { name: 'review-kit', source: './plugins/review', description: 'Review helpers' },
        { name: 'from-npm', source: { source: 'npm', package: 'x' } },
      ],
    }),
  };
  for (const [path, content] of Object.entries(FULL_PLUGIN)) files[`plugins/review/${path}`] = content;
  sha = await repo.commit(files);
});
afterAll(() => cleanup());

describe('bosun plugin inspect', () => {
  it('prints what a plugin contains and its problems (exit 1: it has an error)', async () => {
    const cache = join(dir, 'cache');
    const { code, stdout } = await runCli([
      'plugin',
      'inspect',
      repo.url,
      '--path',
      'plugins/review',
      '--cache',
      cache,
    ]);
    expect(code).toBe(1);
    expect(stdout).toContain('Plugin review-kit 1.2.0 - Review helpers');
    expect(stdout).toContain(`source:   ${repo.url} @ (default branch) = ${sha}`);
    expect(stdout).toContain('Skills (1):\n  code-review  Reviews a diff.  [skills/code-review/SKILL.md]');
    expect(stdout).toContain('Commands (1):\n  /review-kit:check  Check the build  [commands/check.md]');
    expect(stdout).toContain('Hooks (1):\n  PreToolUse [terminal]: ');
    expect(stdout).toContain('MCP servers (1):\n  echo');
    expect(stdout).toContain("error: .mcp.json: MCP server 'broken' needs a 'command' or a 'url'; not loaded");
  });

  it('prints JSON with --json, and refuses bad input with exit 2', async () => {
    const cache = join(dir, 'cache');
    const json = await runCli([
      'plugin',
      'inspect',
      repo.url,
      '--ref',
      'main',
      '--path',
      'plugins/review',
      '--json',
      '--cache',
      cache,
    ]);
    expect(JSON.parse(json.stdout)).toMatchObject({
      name: 'review-kit',
      resolved_ref: sha,
      original_ref: 'main',
      mcp_servers: ['echo'],
    });
    const escaping = await runCli(['plugin', 'inspect', repo.url, '--path', '../x', '--cache', cache]);
    expect(escaping).toMatchObject({
      code: 2,
      stderr: "bosun plugin inspect: repo_path: '../x' must not contain '..'\n",
    });
    expect((await runCli(['plugin', 'inspect', 'not a repo', '--cache', cache])).code).toBe(2);
    expect((await runCli(['plugin', 'list'])).code).toBe(2);
    const missing = await runCli(['plugin', 'inspect', `file://${dir}/nowhere.git`, '--cache', cache]);
    expect(missing.code).toBe(1);
    expect(missing.stdout).toContain('Plugin (not loaded)');
    expect(missing.stdout).toMatch(/error: cannot fetch file:\/\/.*nowhere\.git/);
  });
});

describe('bosun marketplace inspect', () => {
  it('lists the plugins with where each is fetched from, and their problems', async () => {
    const { code, stdout } = await runCli(['marketplace', 'inspect', repo.url, '--cache', join(dir, 'cache')]);
    expect(code).toBe(1);
    expect(stdout).toContain('Marketplace acme by Acme');
    expect(stdout).toContain(`  review-kit: ${repo.url} @ ${sha} path plugins/review\n      Review helpers`);
    expect(stdout).toContain(
      "  from-npm: (cannot be loaded)\n      error: .claude-plugin/marketplace.json: plugins[1]: source type 'npm' is not a Git repository",
    );
    expect(stdout).toMatch(/\nProblems \(\d+\): [1-9]\d* errors?, \d+ warnings?\n$/);
  });

  it('reads each plugin of the marketplace as loading does: an LSP-only plugin is a warning, not an error', async () => {
    const official = await TestRepository.create(join(dir, 'remotes'), 'anthropics/claude-plugins-official');
    const officialSha = await official.commit(OFFICIAL_MARKETPLACE);
    const { code, stdout } = await runCli(['marketplace', 'inspect', official.url, '--cache', join(dir, 'cache')]);
    const lines = [
      `  typescript-lsp 1.0.0: ${official.url} @ ${officialSha} path plugins/typescript-lsp`,
      '      TypeScript/JavaScript language server for enhanced code intelligence',
      '      not loaded: lspServers',
      '      holds nothing Bosun loads',
      "      warning: .claude-plugin/marketplace.json: 'lspServers' is not supported by Bosun (LSP servers); ignored",
    ];
    expect(stdout).toContain(`${lines.join('\n')}\n`);
    expect(stdout).toContain('      hooks: PreToolUse [Bash] if Bash(git commit:*)\n');
    // The count is of the problems listed (each plugin's too), never 0 above warnings.
    expect(stdout).toMatch(/\nProblems \(1\): 0 errors, 1 warning\n$/);
    expect(code).toBe(0);
  });
});
