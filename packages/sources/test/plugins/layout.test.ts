import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { loadPlugin, mergeHookConfigs, pluginInspection } from '@bosun/sources';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from '../git/support.ts';
import { FULL_PLUGIN } from './fixtures.ts';

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir('bosun-plugin-'));
});
afterEach(() => cleanup());

async function write(root: string, files: Record<string, string>): Promise<void> {
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), content);
  }
}

describe('reading a plugin directory', () => {
  it('reads every part of the Claude Code layout, and says what it leaves out', async () => {
    await write(dir, FULL_PLUGIN);
    const plugin = await loadPlugin(dir, { defaultName: 'dir-name' });
    expect(plugin).toMatchObject({
      name: 'review-kit',
      version: '1.2.0',
      description: 'Review helpers',
      manifestPath: '.claude-plugin/plugin.json',
    });
    expect(plugin.skills).toEqual([
      {
        name: 'code-review',
        description: 'Reviews a diff.',
        dir: join(dir, 'skills/code-review'),
        path: 'skills/code-review/SKILL.md',
      },
    ]);
    expect(plugin.commands).toEqual([
      expect.objectContaining({
        name: 'review-kit:check',
        triggers: ['/review-kit:check'],
        description: 'Check the build',
        argumentHint: '[target]',
        content: 'Run the build for $ARGUMENTS.',
        path: 'commands/check.md',
      }),
    ]);
    expect(plugin.agents).toEqual([expect.objectContaining({ name: 'critic', description: 'A harsh critic' })]);
    const command = `export CLAUDE_PLUGIN_ROOT='${dir}'; ${dir}/hooks/guard.sh`;
    expect(plugin.hooks).toEqual({
      PreToolUse: [{ matcher: 'terminal', hooks: [{ type: 'command', command, timeout: 5 }] }],
    });
    expect(plugin.mcpServers).toEqual({ echo: { command: 'node', args: [`${dir}/server.js`], enabled: true } });
    const messages = plugin.problems.map((p) => `${p.severity} ${p.path}: ${p.message}`);
    expect(messages).toEqual(
      expect.arrayContaining([
        "warning .claude-plugin/plugin.json: 'outputStyles' is not supported by Bosun (output styles); ignored",
        "warning .claude-plugin/plugin.json: unknown key 'favouriteColour'; ignored",
        'warning skills/notes: has no SKILL.md; not a skill',
        "warning hooks/hooks.json: a 'http' hook of 'PreToolUse' is not supported by Bosun; ignored",
        "warning hooks/hooks.json: hook event 'Notification' is not supported by Bosun; its hooks are ignored",
        "error .mcp.json: MCP server 'broken' needs a 'command' or a 'url'; not loaded",
        "error .mcp.json: MCP server 'both' is not valid (both: MCP server 'both' has both `command` and `url`; give one); not loaded",
      ]),
    );
    expect(messages).toHaveLength(7);
  });

  it('takes the manifest from .codex-plugin/ or .plugin/, or none (the name then comes from the caller)', async () => {
    await write(join(dir, 'codex'), {
      '.codex-plugin/plugin.json': JSON.stringify({ name: 'codex-one' }),
      'commands/go.md': 'Go.\n',
    });
    await write(join(dir, 'neutral'), {
      '.plugin/plugin.json': JSON.stringify({ name: 'neutral-one', entry_command: 'go' }),
      'commands/go.md': 'Go.\n',
    });
    await write(join(dir, 'bare'), { 'SKILL.md': '---\ndescription: One skill.\n---\nBody\n' });
    expect((await loadPlugin(join(dir, 'codex'), { defaultName: 'x' })).name).toBe('codex-one');
    const neutral = await loadPlugin(join(dir, 'neutral'), { defaultName: 'x' });
    expect(neutral.commands[0]).toMatchObject({
      name: 'neutral-one:go',
      triggers: ['/neutral-one:go', '/neutral-one'],
    });
    const bare = await loadPlugin(join(dir, 'bare'), { defaultName: 'bare-skill' });
    // The specification asks every SKILL.md for a name: a warning, as lint says (it loads as the plugin's).
    expect(bare).toMatchObject({ name: 'bare-skill', manifestPath: null });
    expect(bare.problems).toEqual([
      {
        severity: 'warning',
        path: 'SKILL.md',
        message: "name: is required (loaded as 'bare-skill', the directory name)",
      },
    ]);
    expect(bare.skills).toEqual([
      expect.objectContaining({ name: 'bare-skill', description: 'One skill.', path: 'SKILL.md' }),
    ]);
  });

  it('follows the manifest component paths, refusing any that leave the plugin', async () => {
    await mkdir(join(dir, 'outside'), { recursive: true });
    await write(join(dir, 'outside'), { 'secret.md': 'secret\n' });
    await write(join(dir, 'p'), {
      '.claude-plugin/plugin.json': JSON.stringify({
        name: 'paths',
        skills: ['./extra'],
        commands: ['./cmds/one.md', '../outside/secret.md'],
        agents: '/etc',
        hooks: { PostToolUse: [{ hooks: [{ command: 'echo done' }] }] },
        mcpServers: './servers.json',
      }),
      'extra/solo/SKILL.md': '---\nname: solo\ndescription: Solo.\n---\n',
      'cmds/one.md': 'One.\n',
      'commands/ignored.md': 'Replaced by the manifest list.\n',
      'servers.json': JSON.stringify({ local: { url: 'http://127.0.0.1:1/mcp' } }),
    });
    await symlink(join(dir, 'outside'), join(dir, 'p', 'escape'));
    const plugin = await loadPlugin(join(dir, 'p'), { defaultName: 'x' });
    expect(plugin.skills.map((s) => s.name)).toEqual(['solo']);
    expect(plugin.commands.map((c) => c.name)).toEqual(['paths:one']);
    expect(plugin.agents).toEqual([]);
    expect(Object.keys(plugin.mcpServers)).toEqual(['local']);
    expect(plugin.hooks?.PostToolUse?.[0]?.hooks[0]?.command).toContain('echo done');
    const errors = plugin.problems.filter((p) => p.severity === 'error').map((p) => p.message);
    expect(errors).toEqual([
      "'../outside/secret.md' leads outside the plugin; ignored",
      "'/etc' must be a path relative to the plugin root; ignored",
    ]);

    await writeFile(
      join(dir, 'p', '.claude-plugin/plugin.json'),
      JSON.stringify({ name: 'paths', skills: './escape' }),
    );
    const linked = await loadPlugin(join(dir, 'p'), { defaultName: 'x' });
    expect(linked.problems.map((p) => p.message)).toContain(
      "'./escape' leads outside the plugin (through a symbolic link); ignored",
    );
  });

  it('never loads nothing silently: an empty plugin, a broken manifest and a missing directory are errors', async () => {
    await write(join(dir, 'empty'), { 'README.md': 'nothing here\n' });
    await write(join(dir, 'broken'), { '.claude-plugin/plugin.json': '{ not json', 'commands/a.md': 'A\n' });
    await write(join(dir, 'typed'), {
      '.plugin/plugin.json': JSON.stringify({ name: 5, commands: 7, mcpServers: [7, { s: { command: 'serve' } }] }),
      'commands/a.md': 'A\n',
    });
    const empty = await loadPlugin(join(dir, 'empty'), { defaultName: 'empty' });
    expect(empty.problems).toEqual([
      {
        severity: 'error',
        path: null,
        message: 'the plugin has no skills, commands, agents, hooks or MCP servers: nothing to load',
      },
    ]);
    const broken = await loadPlugin(join(dir, 'broken'), { defaultName: 'broken' });
    expect(broken.problems[0]).toMatchObject({ severity: 'error', path: '.claude-plugin/plugin.json' });
    expect(broken.problems[0]?.message).toMatch(/^not valid JSON/);
    expect(broken.commands.map((c) => c.name)).toEqual(['broken:a']);
    const typed = await loadPlugin(join(dir, 'typed'), { defaultName: 'typed' });
    expect(typed.problems.map((p) => p.message)).toEqual([
      "'name' must be a string",
      "'commands' must be a path or a list of paths",
      "'mcpServers' must be a path, an object, or a list of them",
    ]);
    expect(typed.commands.map((c) => c.name)).toEqual(['typed:a']);
    expect(Object.keys(typed.mcpServers)).toEqual(['s']);
    const missing = await loadPlugin(join(dir, 'nope'), { defaultName: 'nope' });
    expect(missing.problems).toEqual([
      { severity: 'error', path: null, message: 'the plugin directory does not exist' },
    ]);
  });

  it('says which hooks and MCP files are missing or not JSON, and still loads the rest of them', async () => {
    await write(dir, {
      '.claude-plugin/plugin.json': JSON.stringify({
        name: 'files',
        hooks: ['./more-hooks.json', './gone-hooks.json'],
        mcpServers: ['./gone-mcp.json', { inline: { command: 'serve' } }],
      }),
      'hooks/hooks.json': '{ not json',
      'more-hooks.json': JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'command', command: 'echo bye' }] }] } }),
      '.mcp.json': '[1,',
    });
    const plugin = await loadPlugin(dir, { defaultName: 'x' });
    expect(plugin.problems.map((p) => [p.path, p.message.replace(/JSON: .*;/, 'JSON: …;')])).toEqual([
      ['hooks/hooks.json', 'not valid JSON: …; its hooks are not loaded'],
      ['.claude-plugin/plugin.json', "hooks file 'gone-hooks.json' does not exist"],
      ['.mcp.json', 'not valid JSON: …; its MCP servers are not loaded'],
      ['.claude-plugin/plugin.json', "MCP file 'gone-mcp.json' does not exist"],
    ]);
    expect(plugin.hooks?.Stop?.[0]?.hooks[0]?.command).toContain('echo bye');
    expect(Object.keys(plugin.mcpServers)).toEqual(['inline']);
  });

  it("adds the manifest's skills to skills/, and takes a .lsp.json for a warning, not a failure", async () => {
    await write(join(dir, 'both'), {
      '.claude-plugin/plugin.json': JSON.stringify({ name: 'both', skills: './more' }),
      'skills/one/SKILL.md': '---\nname: one\ndescription: One.\n---\n',
      'more/two/SKILL.md': '---\nname: two\ndescription: Two.\n---\n',
    });
    const both = await loadPlugin(join(dir, 'both'), { defaultName: 'x' });
    expect(both.skills.map((s) => s.name)).toEqual(['one', 'two']);
    await write(join(dir, 'lsp'), { '.lsp.json': JSON.stringify({ go: { command: 'gopls' } }), 'README.md': 'Go\n' });
    const lsp = await loadPlugin(join(dir, 'lsp'), { defaultName: 'lsp' });
    expect(lsp.unsupported).toEqual(['lspServers']);
    expect(lsp.problems).toEqual([
      {
        severity: 'warning',
        path: '.lsp.json',
        message: "'lspServers' is not supported by Bosun (LSP servers); ignored",
      },
    ]);
  });

  it("keeps a hook's `if`, and leaves out a hook whose `if` cannot be read or is on an event without tools", async () => {
    const hook = (rule: string) => ({ hooks: [{ type: 'command', command: 'true', if: rule }] });
    await write(dir, {
      'hooks/hooks.json': JSON.stringify({
        hooks: {
          PreToolUse: [{ matcher: 'Bash', ...hook('Bash(git push:*)') }, hook('Bash(git push')],
          Stop: [hook('Bash')],
        },
      }),
    });
    const plugin = await loadPlugin(dir, { defaultName: 'guards' });
    expect(plugin.hooks?.PreToolUse?.map((g) => g.hooks.map((h) => h.if))).toEqual([['Bash(git push:*)']]);
    expect(plugin.hooks?.Stop).toBeUndefined();
    expect(plugin.problems.map((p) => `${p.severity}: ${p.message}`)).toEqual([
      `error: Invalid \`if\` rule "Bash(git push": expected Tool or Tool(specifier); this hook of 'PreToolUse' is not loaded`,
      "warning: a hook of 'Stop' has an `if`, which applies to tool events only; it never runs",
    ]);
  });

  it('summarizes a plugin for inspection', async () => {
    await write(dir, FULL_PLUGIN);
    const plugin = await loadPlugin(dir, { defaultName: 'x' });
    const inspection = pluginInspection({
      resolved: {
        source: 'file:///repo',
        original_ref: null,
        resolved_ref: 'a'.repeat(40),
        repo_path: null,
        marketplace: null,
        name: plugin.name,
        problems: plugin.problems,
      },
      plugin,
    });
    expect(inspection).toMatchObject({
      name: 'review-kit',
      skills: [{ name: 'code-review', description: 'Reviews a diff.', path: 'skills/code-review/SKILL.md' }],
      commands: [{ name: '/review-kit:check', description: 'Check the build', path: 'commands/check.md' }],
      agents: [{ name: 'critic', description: 'A harsh critic', path: 'agents/critic.md' }],
      hooks: [{ event: 'PreToolUse', matcher: 'terminal' }],
      mcp_servers: ['echo'],
    });
    expect(inspection.problems).toHaveLength(7);
  });
});

describe('merging hook configurations', () => {
  it("runs the conversation's own hooks first, then each plugin's, whatever the spelling", () => {
    const own = { pre_tool_use: [{ matcher: '*', hooks: [{ type: 'command' as const, command: 'own' }] }] };
    const plugin = {
      hooks: { PreToolUse: [{ matcher: 'terminal', hooks: [{ type: 'command' as const, command: 'plugin' }] }] },
    };
    const stop = { Stop: [{ matcher: '*', hooks: [{ type: 'command' as const, command: 'stop' }] }] };
    const merged = mergeHookConfigs([own, null, plugin, stop]);
    expect(Object.keys(merged)).toEqual(['PreToolUse', 'Stop']);
    expect(merged.PreToolUse?.map((g) => g.hooks[0]?.command)).toEqual(['own', 'plugin']);
    expect(merged.Stop?.map((g) => g.hooks[0]?.command)).toEqual(['stop']);
  });
});
