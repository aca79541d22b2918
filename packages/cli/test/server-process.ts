import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { SANDBOX_COMMAND } from '../../../test/support/sandbox-bundle.ts';

const CLI = fileURLToPath(new URL('../bin/bosun.js', import.meta.url));
const children: ChildProcess[] = [];

export type Started =
  | { url: string; output: () => string; child: ChildProcess }
  | { code: number | null; output: string };

/**
 * Starts `bosun agent-server` with `args` and only the `BOSUN_*` variables of `env`; resolves once it listens and
 * has said its model (with its URL), or with its exit code and output if it exits.
 */
export function startAgentServer(args: string[], env: Record<string, string>): Promise<Started> {
  return startServer(CLI, ['agent-server', ...args], env, /Default model|No default LLM/);
}

/**
 * Starts `bosun serve` as `startAgentServer` starts the agent server; resolves once it has said all it says. Its
 * sandboxes run the bundle the run's global setup built (unless `env` says otherwise), not one it would build.
 */
export function startAppServer(args: string[], env: Record<string, string>): Promise<Started> {
  const sandboxes = { BOSUN_SANDBOX_COMMAND: SANDBOX_COMMAND.join(',') };
  return startServer(CLI, ['serve', ...args], { ...sandboxes, ...env }, /API documentation at/);
}

/**
 * Runs `script` (the CLI or its bundle) with `args` and only the `BOSUN_*` variables of `env`; resolves once its
 * output has a `listening on URL` line and matches `ready`, or with its exit code and output if it exits.
 */
export function startServer(script: string, args: string[], env: Record<string, string>, ready: RegExp) {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('BOSUN_')));
  const child = spawn(process.execPath, [script, ...args], {
    env: { ...clean, BOSUN_LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  return new Promise<Started>((resolve) => {
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const url = /listening on (http:\/\/\S+)/.exec(output)?.[1];
      if (url && ready.test(output)) resolve({ url, output: () => output, child });
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    // 'close', not 'exit': by then everything the process wrote has been read.
    child.once('close', (code) => resolve({ code, output }));
  });
}

/** Stops a started server with SIGTERM and waits for it to exit, with its exit code. */
export async function stopServer(started: Started): Promise<number | null> {
  if (!('child' in started)) return started.code;
  const exited = new Promise<number | null>((resolve) => started.child.once('exit', resolve));
  started.child.kill('SIGTERM');
  return exited;
}

/** Kills every server this file started (for an `afterAll`). */
export function killServers(): void {
  for (const child of children.splice(0)) child.kill('SIGKILL');
}
