import { execFile, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const CLI = fileURLToPath(new URL('../../../cli/bin/bosun.js', import.meta.url));
const LISTENING = /Bosun app server listening on (http:\/\/\S+)/;

/** A `bosun serve` process: where it listens, everything it wrote, and how to stop it. */
export interface AppProcess {
  url: string;
  pid: number;
  output(): string;
  /** SIGKILL: nothing is closed, flushed or handed over. Resolves once the process is gone. */
  kill(): Promise<void>;
  /** SIGTERM: the server closes as it does for a rolling update. Resolves once the process is gone. */
  stop(): Promise<void>;
}

/**
 * Starts `bosun serve` (this checkout, through its CLI) with `settings` as BOSUN_* variables (`start_task_lease`
 * -> BOSUN_START_TASK_LEASE; lists comma-separated), on a free loopback port; resolves once it says where it listens.
 */
export function startAppProcess(settings: Record<string, string | number | string[]>): Promise<AppProcess> {
  const env: Record<string, string> = { ...(process.env as Record<string, string>) };
  for (const [key, value] of Object.entries(settings)) {
    env[`BOSUN_${key.toUpperCase()}`] = Array.isArray(value) ? value.join(',') : String(value);
  }
  const child = spawn(process.execPath, [CLI, 'serve', '--host', '127.0.0.1', '--port', '0'], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let output = '';
  let started = false;
  const gone = async (signal: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await exited;
  };
  return new Promise<AppProcess>((resolve, reject) => {
    const onExit = (code: number | null, signal: string | null) =>
      reject(new Error(`bosun serve exited early (${signal ?? code}); output:\n${output}`));
    child.once('exit', onExit);
    for (const stream of [child.stdout, child.stderr]) {
      stream.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        const match = LISTENING.exec(output);
        if (!match || started) return;
        started = true;
        child.off('exit', onExit);
        resolve({
          url: match[1] as string,
          pid: child.pid as number,
          output: () => output,
          kill: () => gone('SIGKILL'),
          stop: () => gone('SIGTERM'),
        });
      });
    }
  });
}

/** `bosun serve` run with `args` and `env` added, to its exit: its exit code and what it wrote to standard error. */
export async function serveRefusal(args: string[], env: Record<string, string> = {}) {
  try {
    await promisify(execFile)(process.execPath, [CLI, 'serve', ...args], { env: { ...process.env, ...env } });
    return { code: 0, stderr: '' };
  } catch (error) {
    const { code, stderr } = error as { code: number; stderr: string };
    return { code, stderr };
  }
}

/** The ids of the processes whose command line names `path` (what a killed server left running under it). */
export async function processesUnder(path: string): Promise<number[]> {
  const { stdout } = await promisify(execFile)('ps', ['-eo', 'pid=,args=']);
  return stdout
    .split('\n')
    .filter((line) => line.includes(path) && !line.includes(' ps '))
    .map((line) => Number(line.trim().split(/\s+/)[0]))
    .filter((pid) => pid !== process.pid);
}
