import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { scratchDir } from './scratch.ts';

const MODULE = fileURLToPath(new URL('../src/until-stopped.ts', import.meta.url));
const scratch = scratchDir('bosun-until-stopped-');

/** Runs `code` (an ES module that may import this module as `MODULE`) in a process; its exit and output. */
async function runModule(code: string): Promise<{ exitCode: number | null; signal: string | null; output: string }> {
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
  return { exitCode, signal, output };
}

/*
 * A process whose close finished but which still has a thread of libuv's pool blocked in a system call (opening
 * a FIFO nobody writes to): `process.exit` would wait for that thread forever. closeWithin ends it at the deadline.
 */
describe('closeWithin', () => {
  it('ends a process that a blocked filesystem call keeps alive after close, at the deadline', async () => {
    const fifo = join(scratch.dir, 'fifo');
    await new Promise((resolve) => spawn('mkfifo', [fifo]).once('exit', resolve));
    const code = `
      import { open } from 'node:fs/promises';
      import { closeWithin } from ${JSON.stringify(MODULE)};
      open(${JSON.stringify(fifo)}, 'r');
      await closeWithin(async () => {}, 300, (line) => process.stderr.write(line + '\\n'));
      process.stdout.write('closed\\n');
    `;
    const { exitCode, signal, output } = await runModule(code);
    expect({ exitCode, signal }, output).toEqual({ exitCode: null, signal: 'SIGKILL' });
    expect(output).toMatch(/closed\n[\s\S]*still pending keeps the process alive; exiting now/);
  });
});

/*
 * The defect: the first signal's handler came off both signals and the closing's went on a step later, after
 * "Stopping" was printed; a second signal in between met the default action (the process died by SIGINT, silently).
 */
describe('closeWhenStopped', () => {
  it('keeps a handler on SIGINT and SIGTERM from the first stop request on, and a second one ends it at once', async () => {
    const code = `
      import { closeWhenStopped } from ${JSON.stringify(MODULE)};
      const io = { stdout: process.stdout, stderr: process.stderr };
      closeWhenStopped(io, 'test', () => new Promise(() => {}), { deadlineMs: 20_000 });
      process.emit('SIGTERM', 'SIGTERM');
      process.stdout.write('handlers ' + process.listenerCount('SIGINT') + ' ' + process.listenerCount('SIGTERM') + '\\n');
      // A server's open socket, which keeps the process up until the signal is handled.
      setInterval(() => {}, 1_000);
      setTimeout(() => process.kill(process.pid, 'SIGINT'), 50);
    `;
    const { exitCode, signal, output } = await runModule(code);
    expect(output).toMatch(/^handlers 1 1\n/);
    expect({ exitCode, signal }, output).toEqual({ exitCode: null, signal: 'SIGKILL' });
    expect(output).toMatch(/Stopping \(SIGTERM\)[\s\S]*bosun test: second stop request \(SIGINT\); exiting now/);
  });

  it('keeps a stop request that arrives before the server is up (watched from the start of a server command)', async () => {
    const code = `
      import { closeWhenStopped, watchStopRequests } from ${JSON.stringify(MODULE)};
      const io = { stdout: process.stdout, stderr: process.stderr };
      watchStopRequests();
      process.kill(process.pid, 'SIGTERM');
      // The server, up a moment later.
      setTimeout(() => closeWhenStopped(io, 'test', async () => process.stdout.write('closed\\n'), { deadlineMs: 20_000 }), 200);
    `;
    const { exitCode, signal, output } = await runModule(code);
    expect({ exitCode, signal }, output).toEqual({ exitCode: 0, signal: null });
    expect(output).toMatch(/^Stopping \(SIGTERM\)[^\n]*\nclosed\n$/);
  });
});
