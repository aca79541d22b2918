import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { IPty } from '@lydell/node-pty';
import { killSession } from './processes.ts';
import { commandLine, exportLines, initScript, shellQuote } from './shell-script.ts';

/**
 * A persistent interactive bash on a pseudo-terminal (see `reference/stack-probe.md` §8).
 *
 * Each command is written to a file and run by one line typed into the shell,
 * `__b_id=ID; __b_rc=; eval "$(< FILE)"; __b_rc=$?; ...`, so it is one parse unit whatever its length or
 * syntax (an unbalanced quote is a syntax error, not a shell waiting for more input), and `cd` or `export`
 * persist. Completion is signalled by `PROMPT_COMMAND`, which prints a sentinel line
 * `__BOSUN_<nonce>__ <id> <exit code> <cwd>` to the terminal whenever the shell is back at its prompt: after the
 * command, and also after Ctrl-C aborted it (then with the interrupted exit code, e.g. 130). The nonce is random
 * per shell and never typed, so output cannot fake a sentinel; sentinels of other ids (a prompt after a stray
 * Ctrl-C) are dropped.
 */

/** Why `wait` returned. */
export type WaitOutcome =
  | 'done' // the command finished: `takeResult()` has its exit code
  | 'quiet' // no new output for `quietMs`
  | 'deadline' // `deadline` passed
  | 'aborted' // `signal` was aborted
  | 'exited' // the shell itself exited
  | 'full'; // more output is buffered than `maxPendingChars`; reading is paused until `take()`

export interface CommandResult {
  exitCode: number;
  cwd: string;
}

export interface ShellSessionOptions {
  cwd: string;
  env: Record<string, string>;
  /** Output kept in memory before the terminal is paused (the running program then blocks on writing). */
  maxPendingChars?: number;
  /** How long the shell may take to start. */
  startTimeoutMs?: number;
}

export interface WaitOptions {
  quietMs?: number;
  deadline?: number;
  signal?: AbortSignal;
}

const DEFAULT_MAX_PENDING_CHARS = 4_000_000;

export class ShellSession {
  /** Starts bash in `options.cwd` and waits until it is ready for commands. */
  static async start(options: ShellSessionOptions): Promise<ShellSession> {
    const cwd = await stat(options.cwd).catch(() => undefined);
    if (!cwd?.isDirectory()) throw new Error(`the working directory ${options.cwd} does not exist`);
    const scratch = await mkdtemp(join(tmpdir(), 'bosun-terminal-'));
    const nonce = randomBytes(12).toString('hex');
    await writeFile(join(scratch, 'init.sh'), initScript(nonce), { mode: 0o600 });
    let session: ShellSession;
    try {
      // Loaded with the first shell: the agent server's start-up does not need the native module.
      const { spawn } = await import('@lydell/node-pty');
      const terminal = spawn('bash', ['--noprofile', '--norc', '--noediting', '-i'], {
        name: 'dumb',
        cols: 200,
        rows: 50,
        cwd: options.cwd,
        env: options.env,
      });
      session = new ShellSession(terminal, scratch, nonce, options);
    } catch (error) {
      await rm(scratch, { recursive: true, force: true });
      throw error;
    }
    session.currentId = 'init';
    session.terminal.write(`source ${shellQuote(join(scratch, 'init.sh'))}\n`);
    const outcome = await session.wait({ deadline: Date.now() + (options.startTimeoutMs ?? 15_000) });
    if (outcome !== 'done') {
      const output = session.take();
      await session.close();
      throw new Error(`bash did not start (${outcome}): ${output.slice(-500)}`);
    }
    session.takeResult();
    session.take();
    return session;
  }

  readonly pid: number;
  /** The shell's working directory after the last command. */
  cwd: string;

  private pending = '';
  private scanFrom = 0;
  private paused = false;
  private lastDataAt = Date.now();
  private currentId: string | undefined;
  private result: CommandResult | undefined;
  private exitCode: number | undefined;
  private closed = false;
  private readonly exited: Promise<void>;
  private readonly marker: string;
  private readonly maxPendingChars: number;
  private readonly commandFile: string;
  private readonly envFile: string;
  private wake: (() => void) | undefined;
  private readonly terminal: IPty;
  private readonly scratch: string;

  private constructor(terminal: IPty, scratch: string, nonce: string, options: ShellSessionOptions) {
    this.terminal = terminal;
    this.scratch = scratch;
    this.pid = terminal.pid;
    this.cwd = options.cwd;
    this.marker = `__BOSUN_${nonce}__ `;
    this.maxPendingChars = options.maxPendingChars ?? DEFAULT_MAX_PENDING_CHARS;
    this.commandFile = join(scratch, 'command.sh');
    this.envFile = join(scratch, 'env.sh');
    terminal.onData((data) => this.receive(data));
    this.exited = new Promise((resolve) => {
      terminal.onExit(({ exitCode }) => {
        this.exitCode = exitCode;
        this.currentId = undefined;
        resolve();
        this.wake?.();
      });
    });
  }

  /** A command is running (its sentinel has not been seen yet). */
  get busy(): boolean {
    return this.currentId !== undefined;
  }

  /** The shell's exit code once it exited, else undefined. */
  get exitStatus(): number | undefined {
    return this.exitCode;
  }

  /**
   * Starts `command`; its output and completion are read with `wait`, `take` and `takeResult`. `env` is exported
   * into the shell first (silently, from a private file removed right after), for variables that changed since
   * the shell started.
   */
  async run(command: string, env: Record<string, string> = {}): Promise<void> {
    if (this.busy) throw new Error('a command is already running');
    if (this.exitCode !== undefined) throw new Error('the shell has exited');
    this.result = undefined;
    await writeFile(this.commandFile, command, { mode: 0o600 });
    const exports = exportLines(env);
    if (exports) await writeFile(this.envFile, exports, { mode: 0o600 });
    const id = randomBytes(6).toString('hex');
    this.currentId = id;
    this.terminal.write(commandLine(id, this.commandFile, exports ? this.envFile : undefined));
  }

  /** Writes raw bytes (input, control keys) to the terminal. */
  send(data: string): void {
    if (this.exitCode === undefined) this.terminal.write(data);
  }

  /** Ctrl-C to the foreground process. */
  interrupt(): void {
    this.send('\x03');
  }

  /** The exit code and working directory of the finished command, once (undefined when not finished). */
  takeResult(): CommandResult | undefined {
    const result = this.result;
    this.result = undefined;
    return result;
  }

  /** The raw output received since the last call, sentinels removed; resumes reading when it was paused. */
  take(): string {
    const cut = this.holdback();
    const output = this.pending.slice(0, cut);
    this.pending = this.pending.slice(cut);
    this.scanFrom = 0;
    if (this.paused) {
      this.paused = false;
      this.terminal.resume();
    }
    return output;
  }

  /** Resolves when the command finished, the shell exited, or one of the limits of `options` was reached. */
  wait(options: WaitOptions): Promise<WaitOutcome> {
    const started = Date.now();
    return new Promise((resolve) => {
      const timers: NodeJS.Timeout[] = [];
      const finish = (outcome: WaitOutcome) => {
        for (const timer of timers) clearTimeout(timer);
        options.signal?.removeEventListener('abort', onAbort);
        this.wake = undefined;
        resolve(outcome);
      };
      const onAbort = () => finish('aborted');
      const check = (): boolean => {
        const outcome = this.ready();
        if (outcome) finish(outcome);
        return outcome !== undefined;
      };
      if (check()) return;
      if (options.signal?.aborted) return finish('aborted');
      options.signal?.addEventListener('abort', onAbort, { once: true });
      if (options.deadline !== undefined) {
        timers.push(setTimeout(() => finish('deadline'), Math.max(0, options.deadline - Date.now())));
      }
      const quietMs = options.quietMs;
      if (quietMs !== undefined) {
        const arm = (delay: number) => {
          timers.push(
            setTimeout(() => {
              const quiet = Date.now() - Math.max(started, this.lastDataAt);
              if (quiet >= quietMs) finish('quiet');
              else arm(quietMs - quiet);
            }, delay),
          );
        };
        arm(quietMs);
      }
      this.wake = check;
    });
  }

  /** Kills the shell and everything it started, and removes its scratch files. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.paused) this.terminal.resume();
    await killSession(this.pid);
    this.terminal.kill('SIGKILL');
    await Promise.race([this.exited, new Promise((resolve) => setTimeout(resolve, 3000).unref())]);
    await rm(this.scratch, { recursive: true, force: true });
  }

  private ready(): WaitOutcome | undefined {
    if (this.result) return 'done';
    if (this.exitCode !== undefined) return 'exited';
    if (this.pending.length >= this.maxPendingChars) return 'full';
    return undefined;
  }

  private receive(data: string): void {
    this.lastDataAt = Date.now();
    this.pending += data;
    this.scan();
    if (!this.paused && this.pending.length >= this.maxPendingChars) {
      this.paused = true;
      this.terminal.pause();
    }
    this.wake?.();
  }

  /** Removes complete sentinel lines from `pending`, recording the one of the running command. */
  private scan(): void {
    for (;;) {
      const at = this.pending.indexOf(this.marker, this.scanFrom);
      if (at < 0) {
        this.scanFrom = Math.max(0, this.pending.length - this.marker.length);
        return;
      }
      const end = this.pending.indexOf('\n', at);
      if (end < 0) {
        this.scanFrom = at;
        return;
      }
      const line = this.pending.slice(at + this.marker.length, end).replace(/\r$/, '');
      let start = at;
      if (this.pending.startsWith('\r\n', at - 2)) start = at - 2;
      else if (this.pending[at - 1] === '\n') start = at - 1;
      this.pending = this.pending.slice(0, start) + this.pending.slice(end + 1);
      this.scanFrom = start;
      this.onSentinel(line);
    }
  }

  private onSentinel(line: string): void {
    const match = /^(\S+) (-?\d+) (.*)$/.exec(line);
    if (!match) return;
    const [, id, exitCode, cwd] = match as unknown as [string, string, string, string];
    if (cwd) this.cwd = cwd;
    if (id !== this.currentId) return;
    this.currentId = undefined;
    this.result = { exitCode: Number(exitCode), cwd: this.cwd };
  }

  /** Where `take` must stop so that a sentinel that has only partly arrived stays whole. */
  private holdback(): number {
    const partial = this.pending.indexOf(this.marker, this.scanFrom);
    if (partial >= 0) return partial;
    const longest = Math.min(this.marker.length - 1, this.pending.length);
    for (let size = longest; size > 0; size--) {
      if (this.marker.startsWith(this.pending.slice(-size))) return this.pending.length - size;
    }
    return this.pending.length;
  }
}
