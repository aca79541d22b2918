import { chmod, mkdir, mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { ownBosunCommand } from '../src/local/bosun-command.ts';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url)).replace(/\/$/, '');
const CLI = join(ROOT, 'packages/cli/bin/bosun.js');
const argv1 = process.argv[1];
let home: string | undefined;

afterEach(async () => {
  process.argv[1] = argv1 as string;
  if (home) await rm(home, { recursive: true, force: true });
});

describe('the Bosun a sandbox runs', () => {
  it('is the installation itself when started through a link in a directory only its user reaches (npx)', async () => {
    // `npx bosun` in a checkout runs <home>/.npm/_npx/<hash>/node_modules/.bin/bosun, a link to the CLI; a
    // sandbox's user cannot reach a 0700 home, and the link's directories are not Bosun's installation.
    home = await mkdtemp(join(tmpdir(), 'bosun-npx-home-'));
    await chmod(home, 0o700);
    const bin = join(home, '.npm/_npx/1a896c578ab41e12/node_modules/.bin');
    await mkdir(bin, { recursive: true });
    await symlink(CLI, join(bin, 'bosun'));
    process.argv[1] = join(bin, 'bosun');
    const own = ownBosunCommand();
    expect(own.command).toEqual([expect.any(String), CLI]);
    expect(own.installation[0]).toBe(ROOT);
    expect(own.installation.some((path) => path.startsWith(home as string))).toBe(false);
  });
});
