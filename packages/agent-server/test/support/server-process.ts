import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const CLI = fileURLToPath(new URL('../../../cli/bin/bosun.js', import.meta.url));
const LISTENING = /Bosun agent server listening on (http:\/\/\S+)/;

export interface ServerProcess {
  child: ChildProcess;
  /** `http://127.0.0.1:PORT` */
  url: string;
  /** Kills the process with SIGKILL (no chance to flush or close anything) and waits for it to be gone. */
  kill(): Promise<void>;
}

/**
 * Spawns `bosun agent-server` on a free loopback port over `dataDir` and resolves once it prints its URL.
 * Its output is drained (so it never blocks on a full pipe) and kept for the error message if it fails to start.
 */
// From the TypeScript sources, on a machine running two suites at once, a start can take tens of seconds.
export function spawnServer(dataDir: string, { timeoutMs = 60_000 } = {}): Promise<ServerProcess> {
  const child = spawn(
    process.execPath,
    [CLI, 'agent-server', '--host', '127.0.0.1', '--port', '0', '--data-dir', dataDir],
    { env: { ...process.env, BOSUN_LOG_LEVEL: 'warn' }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let output = '';
  return new Promise<ServerProcess>((resolve, reject) => {
    const fail = (why: string) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new Error(`agent server ${why}; output:\n${output}`));
    };
    const timer = setTimeout(() => fail(`did not start within ${timeoutMs} ms`), timeoutMs);
    let started = false;
    const onData = (chunk: Buffer) => {
      if (started) return;
      output += chunk.toString();
      const match = LISTENING.exec(output);
      if (!match) return;
      started = true;
      clearTimeout(timer);
      child.off('exit', onExit);
      resolve({
        child,
        url: match[1] as string,
        async kill() {
          if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
          await exited;
        },
      });
    };
    const onExit = (code: number | null, signal: string | null) => fail(`exited early (${signal ?? code})`);
    child.stdout.on('data', onData);
    child.stderr.on('data', (chunk: Buffer) => {
      if (!started) output += chunk.toString();
    });
    child.once('exit', onExit);
  });
}
