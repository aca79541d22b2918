import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runCli } from './io.ts';

const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

describe('bosun --version', () => {
  it.each(['--version', '-v', 'version'])('%s prints the version and the Node running it', async (flag) => {
    const result = await runCli([flag]);
    expect(result).toEqual({ code: 0, stdout: `bosun ${version} (Node.js ${process.version})\n`, stderr: '' });
  });

  it('is in the help', async () => {
    expect((await runCli(['--help'])).stdout).toContain('bosun --version');
  });
});
