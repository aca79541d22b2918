import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ownBosunCommand } from '../src/local/bosun-command.ts';
import { sandboxBosunCommand } from '../src/local/sandbox-bundle.ts';

describe('what sandboxes run of a Bosun started from its sources', () => {
  it('is the bundle, built once into a directory of the process, never the TypeScript sources', async () => {
    const own = ownBosunCommand();
    // Here (a test) Bosun runs from its sources: the entry a sandbox would compile at each start.
    expect(own.command[1]).toMatch(/packages\/cli\/bin\/bosun\.js$/);
    const command = await sandboxBosunCommand(own);
    const [node, bundle] = command;
    expect(node).toBe(process.execPath);
    expect(bundle).toMatch(new RegExp(`packages/cli/dist/sandbox-${process.pid}-\\d+/bosun\\.mjs$`));
    expect(bundle?.startsWith(own.installation[0] as string)).toBe(true);
    expect(existsSync(bundle as string)).toBe(true);
    const { stdout } = await promisify(execFile)(node as string, [bundle as string, 'agent-server', '--help']);
    expect(stdout).toContain('Usage: bosun agent-server');
  }, 120_000);

  it('is the command as given when it is not the sources', async () => {
    const bundled = { ...ownBosunCommand(), command: [process.execPath, '/opt/bosun/bosun.mjs'] };
    expect(await sandboxBosunCommand(bundled)).toEqual([process.execPath, '/opt/bosun/bosun.mjs']);
  });
});
