import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const MODULE = fileURLToPath(new URL('../src/until-stopped.ts', import.meta.url));
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'bosun-until-stopped-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/*
 * A process whose close finished but which still has a thread of libuv's pool blocked in a system call (opening
 * a FIFO nobody writes to): `process.exit` would wait for that thread forever. closeWithin ends it at the deadline.
 */
describe('closeWithin', () => {
  it('ends a process that a blocked filesystem call keeps alive after close, at the deadline', async () => {
    const fifo = join(dir, 'fifo');
    await new Promise((resolve) => spawn('mkfifo', [fifo]).once('exit', resolve));
    const code = `
      import { open } from 'node:fs/promises';
      import { closeWithin } from ${JSON.stringify(MODULE)};
      open(${JSON.stringify(fifo)}, 'r');
      await closeWithin(async () => {}, 300, (line) => process.stderr.write(line + '\\n'));
      process.stdout.write('closed\\n');
    `;
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    const [exitCode, signal] = await once(child, 'exit');
    expect({ exitCode, signal }, output).toEqual({ exitCode: null, signal: 'SIGKILL' });
    expect(output).toMatch(/closed\n[\s\S]*still pending keeps the process alive; exiting now/);
  });
});
