import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import Module from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ownBosunCommand } from '../src/local/bosun-command.ts';
import { shareCompileCache } from '../src/local/compile-cache.ts';
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

describe("the bundle's compile cache, for a sandbox's user", () => {
  it("is the build user's, given to each sandbox user once (hard links), where Node looks for that user's", async () => {
    const dist = await mkdtemp(join(tmpdir(), 'bosun-compile-cache-'));
    try {
      const built = join(dist, 'compile-cache', 'v24.0.0-x64-abcdef01-0');
      await mkdir(built, { recursive: true });
      await writeFile(join(built, '0ac7ad4e'), 'cached');
      const command = [process.execPath, join(dist, 'bosun.mjs'), 'agent-server'];
      await Promise.all([shareCompileCache(command, 4242), shareCompileCache(command, 4242)]);
      const given = join(dist, 'compile-cache', 'v24.0.0-x64-abcdef01-4242', '0ac7ad4e');
      expect((await stat(given)).ino).toBe((await stat(join(built, '0ac7ad4e'))).ino);
      // Not the bundle: nothing is done.
      await shareCompileCache([process.execPath, join(dist, 'other.mjs')], 4343);
      expect(existsSync(join(dist, 'compile-cache', 'v24.0.0-x64-abcdef01-4343'))).toBe(false);
    } finally {
      await rm(dist, { recursive: true, force: true });
    }
  });

  it("is accepted by Node run as that user (a sandbox's agent server)", async (context) => {
    if (process.getuid?.() !== 0) context.skip('runs the bundle as another user: needs root');
    if (!('enableCompileCache' in Module)) context.skip(`Node ${process.version} has no compile cache`);
    const command = await sandboxBosunCommand(ownBosunCommand());
    await shareCompileCache(command, 10001);
    const [node, bundle] = command as [string, string];
    const { stderr } = await promisify(execFile)(
      'setpriv',
      ['--reuid=10001', '--regid=10001', '--clear-groups', node, bundle, 'agent-server', '--help'],
      { env: { PATH: process.env.PATH, NODE_DEBUG_NATIVE: 'COMPILE_CACHE' } },
    );
    // What the bundle loads through Node's loader at every start: the validators the build compiled.
    expect(stderr).toMatch(/CommonJS \S+\/bosun\.cjs\.[0-9a-f]+\.validators\.cjs was accepted/);
  }, 120_000);
});
