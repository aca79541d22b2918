import { readdirSync } from 'node:fs';
import { mkdir, mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { createTerminalTool } from '../../src/tools/terminal/terminal-tool.ts';
import type { ToolContext } from '../../src/tools/tool.ts';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

it('exports variables added to a live env before the next command, keeping the shell and its state', async () => {
  const root = await realpath(await mkdtemp(join(tmpdir(), 'bosun-terminal-env-')));
  const workspace = join(root, 'workspace');
  const scratchRoot = join(root, 'tmp');
  await Promise.all([mkdir(workspace), mkdir(scratchRoot)]);
  // The shell keeps its private files under TMPDIR: here, where this test can look.
  const previousTmp = process.env.TMPDIR;
  process.env.TMPDIR = scratchRoot;
  const env: Record<string, string> = { FIRST: 'one' };
  const tool = createTerminalTool({ softTimeoutMs: 10_000, env: () => env });
  cleanups.push(async () => {
    if (previousTmp === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previousTmp;
    await tool.close?.();
    await rm(root, { recursive: true, force: true });
  });
  const context: ToolContext = {
    workspace,
    stateDir: join(root, 'state'),
    signal: new AbortController().signal,
    mask: (text) => text,
  };
  const run = async (command: string) => {
    const observation = await tool.execute({ kind: 'TerminalAction', command, is_input: false, reset: false }, context);
    return observation.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
  };

  expect(await run('LOCAL=kept; echo "[$FIRST][$ADDED][$$]"')).toMatch(/\[one\]\[\]\[\d+\]/);
  const pid = /\[one\]\[\]\[(\d+)\]/.exec(await run('echo "[$FIRST][$ADDED][$$]"'))?.[1];

  env.ADDED = `it's "quoted" $HOME \`x\`\nsecond line`;
  env['NOT-A-NAME'] = 'skipped';
  env.FIRST = 'replaced';
  const after = await run('printf "%s|%s|%s|%s" "$FIRST" "$ADDED" "$LOCAL" "$$"');
  expect(after).toContain(`replaced|it's "quoted" $HOME \`x\`\nsecond line|kept|${pid}`);
  // Nothing leaked into the output (no `export` error for the invalid name), and the private file is gone.
  expect(after).not.toContain('skipped');
  expect(after).not.toContain('export');
  const [scratch] = readdirSync(scratchRoot);
  expect(scratch).toMatch(/^bosun-terminal-/);
  expect(readdirSync(join(scratchRoot, scratch as string)).sort()).toEqual(['command.sh', 'init.sh']);
});
