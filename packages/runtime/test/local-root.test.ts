import { existsSync } from 'node:fs';
import { chmod, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LocalRuntime } from '@bosun/runtime';
import { afterEach, describe, expect, it } from 'vitest';
import { SANDBOX_COMMAND } from '../../../test/support/sandbox-bundle.ts';

const made: string[] = [];
afterEach(async () => {
  for (const dir of made.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function tempDir(prefix: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

describe('local runtime: its root', () => {
  it('moves the sandboxes out of a directory their user cannot traverse (a 0700 home, mktemp -d), and says where', async (context) => {
    if (process.getuid?.() !== 0) context.skip('only a runtime running as root runs sandboxes as another user');
    const home = await tempDir('bosun-root-home-');
    await chmod(home, 0o700);
    const base = await tempDir('bosun-root-base-');
    await chmod(base, 0o711);
    const asked = join(home, 'data', 'sandboxes');
    const warnings: string[] = [];
    const options = {
      root: asked,
      command: SANDBOX_COMMAND,
      traversableBase: join(base, 'sandboxes'),
      startTimeoutMs: 90_000,
      logger: { warn: (message: string) => warnings.push(message) },
    };
    const runtime = await LocalRuntime.open(options);
    let root: string;
    try {
      root = runtime.root;
      expect(root).toMatch(new RegExp(`^${base}/sandboxes/[0-9a-f]{16}$`));
      expect(warnings).toEqual([`sandboxes are in ${root}: ${home} is not traversable by the sandboxes' user`]);
      expect(await readFile(join(asked, 'MOVED'), 'utf8')).toContain(`The sandboxes of this runtime are in ${root}`);
      const sandbox = await runtime.start({ sessionId: 'moved' });
      expect(sandbox.status, sandbox.statusDetail ?? '').toBe('RUNNING');
      expect(existsSync(join(root, sandbox.id, 'workspace'))).toBe(true);
    } finally {
      await runtime.close();
    }
    // The same place at the next start: its sandboxes are found again.
    const again = await LocalRuntime.open(options);
    try {
      expect(again.root).toBe(root);
      expect((await again.getBySession('moved'))?.status).toBe('PAUSED');
    } finally {
      await again.close();
    }
  }, 120_000);
});
