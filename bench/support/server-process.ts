import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { chmod, mkdtemp, readFile, rm } from 'node:fs/promises';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** The server as `npm start` runs it: the bundle of Bosun's code, built once per benchmark process. */
export const CLI = join(ROOT, 'packages/cli/dist/bosun.mjs');
let bundled: Promise<unknown> | undefined;

export function buildBundle(): Promise<unknown> {
  bundled ??= promisify(execFile)(process.execPath, [join(ROOT, 'scripts/build.mjs')], { cwd: ROOT });
  return bundled;
}
const LISTENING = /Bosun agent server listening on (http:\/\/\S+)/;

export interface ServerProcess {
  child: ChildProcess;
  pid: number;
  /** `http://127.0.0.1:PORT` */
  url: string;
  /** Milliseconds from spawn to the "listening" line on stdout. */
  listeningMs: number;
  /** Stops the server (SIGTERM, then SIGKILL after 5 s) and waits for it to exit. */
  stop(): Promise<void>;
}

/**
 * Spawns `bosun agent-server` from the bundle `npm start` runs (on a free port unless `port` is given) over `dataDir` (logging at `warn` unless BOSUN_LOG_LEVEL says otherwise,
 * so per-request logs do not skew the numbers) and resolves once it prints its URL.
 */
export async function spawnServer(
  dataDir: string,
  { port = 0, env = {} }: { port?: number; env?: Record<string, string> } = {},
): Promise<ServerProcess> {
  await buildBundle();
  const startedAt = performance.now();
  // SERVER_NODE_ARGS passes flags to the server's node, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof" to profile it.
  const nodeArgs = (process.env.SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child = spawn(
    process.execPath,
    [...nodeArgs, CLI, 'agent-server', '--host', '127.0.0.1', '--port', String(port), '--data-dir', dataDir],
    {
      env: { ...process.env, BOSUN_LOG_LEVEL: process.env.BOSUN_LOG_LEVEL ?? 'warn', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let output = '';
  let started = false;
  return new Promise((resolve, reject) => {
    const onExit = (code: number | null, signal: string | null) =>
      reject(new Error(`agent server exited early (${signal ?? code}):\n${output}`));
    child.once('exit', onExit);
    child.stderr.on('data', (chunk: Buffer) => {
      if (!started) output += chunk.toString();
    });
    child.stdout.on('data', (chunk: Buffer) => {
      if (started) return;
      output += chunk.toString();
      const match = LISTENING.exec(output);
      if (!match) return;
      started = true;
      child.off('exit', onExit);
      resolve({
        child,
        pid: child.pid as number,
        url: match[1] as string,
        listeningMs: performance.now() - startedAt,
        async stop() {
          if (child.exitCode !== null || child.signalCode !== null) return;
          const force = setTimeout(() => child.kill('SIGKILL'), 5000);
          child.kill('SIGTERM');
          await exited;
          clearTimeout(force);
        },
      });
    });
  });
}

/** Resident memory of a process in MiB, from /proc/<pid>/status (VmRSS). */
export async function residentMiB(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kib = Number(/VmRSS:\s+(\d+)\s+kB/.exec(status)?.[1]);
  return kib / 1024;
}

/** CPU time (user + system, all threads) a process has used so far, in seconds, from /proc/<pid>/stat. */
export async function cpuSeconds(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name (which may hold spaces) start at field 3; utime and stime are fields 14 and 15.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
}

/** Linux's USER_HZ: /proc times are in 1/100 s. */
const CLOCK_TICKS = 100;

/** A fresh temporary data directory and a function that removes it. */
export async function tempDataDir(prefix: string): Promise<{ dir: string; remove: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), `bosun-bench-${prefix}-`));
  // An app server's sandboxes run as another user, who must reach <data_dir>/sandboxes.
  await chmod(dir, 0o711);
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

/** A port that was free a moment ago (bound to 0 and released). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}
