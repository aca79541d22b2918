import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import type { BashCommand, BashEvent, BashOutput } from '@bosun/protocol';
import { commandEnvironment } from './environment.ts';
import type { BashEventStore } from './event-store.ts';

/** Characters of one stream kept before they are recorded as a `BashOutput` (as OpenHands: 1 MiB). */
export const MAX_CHUNK_CHARS = 1024 * 1024;
/** Between SIGTERM and SIGKILL to a command's process group. */
const KILL_GRACE_MS = 1000;

export interface CommandRequest {
  command: string;
  cwd: string;
  timeout: number;
}

type Listener = (event: BashEvent) => void;

export const newEventId = () => randomUUID().replaceAll('-', '');
const now = () => new Date().toISOString();

/**
 * Runs commands with `bash -c` as child processes, each in its own process group (so a timeout stops what
 * it started too), and records them and their output in the store. Listeners see every event as it is stored.
 */
export class BashRunner {
  private readonly running = new Map<string, ChildProcess>();
  private readonly listeners = new Set<Listener>();
  private readonly pending = new Set<Promise<BashOutput>>();
  private lastEventAt = 0;

  constructor(private readonly store: BashEventStore) {
    this.closeInterrupted();
  }

  /** Now while a command runs, else when the last event was recorded (0: never): the server's idle time. */
  lastActivityAt(): number {
    return this.running.size > 0 ? Date.now() : this.lastEventAt;
  }

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Starts `request`; `done` resolves with its last output (the one with the exit code). */
  start(request: CommandRequest): { command: BashCommand; done: Promise<BashOutput> } {
    const command: BashCommand = { kind: 'BashCommand', id: newEventId(), timestamp: now(), ...request };
    this.record(command);
    const done = new Promise<BashOutput>((resolve) => this.spawn(command, resolve));
    this.pending.add(done);
    void done.then(() => this.pending.delete(done));
    return { command, done };
  }

  /** Stops every running command (the server is closing); their last outputs are still recorded. */
  async close(): Promise<void> {
    for (const child of this.running.values()) signalGroup(child, 'SIGKILL');
    await Promise.all(this.pending);
  }

  private spawn(command: BashCommand, resolve: (output: BashOutput) => void): void {
    let order = 0;
    const buffers = { stdout: '', stderr: '' };
    const emit = (exitCode: number | null) => {
      const output: BashOutput = {
        kind: 'BashOutput',
        id: newEventId(),
        timestamp: now(),
        command_id: command.id,
        order: order++,
        exit_code: exitCode,
        stdout: buffers.stdout || null,
        stderr: buffers.stderr || null,
      };
      buffers.stdout = '';
      buffers.stderr = '';
      this.record(output);
      return output;
    };
    let child: ChildProcess;
    try {
      child = spawn('bash', ['-c', command.command], {
        cwd: command.cwd ?? undefined,
        env: commandEnvironment(),
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
    } catch (error) {
      // Arguments Node refuses outright: the command ends at once, as one that could not start.
      buffers.stderr = `${(error as Error).message}\n`;
      resolve(emit(-1));
      return;
    }
    this.running.set(command.id, child);
    for (const stream of ['stdout', 'stderr'] as const) {
      child[stream]?.setEncoding('utf8');
      child[stream]?.on('data', (text: string) => {
        buffers[stream] += text;
        if (buffers[stream].length >= MAX_CHUNK_CHARS) emit(null);
      });
    }
    let timedOut = false;
    let killTimer: NodeJS.Timeout | undefined;
    const timeoutTimer = setTimeout(() => {
      timedOut = true;
      signalGroup(child, 'SIGTERM');
      killTimer = setTimeout(() => signalGroup(child, 'SIGKILL'), KILL_GRACE_MS);
    }, command.timeout * 1000);
    let finished = false;
    const finish = (exitCode: number, note?: string) => {
      if (finished) return;
      finished = true;
      clearTimeout(timeoutTimer);
      clearTimeout(killTimer);
      this.running.delete(command.id);
      if (note) buffers.stderr += note;
      resolve(emit(exitCode));
    };
    child.on('error', (error) => finish(-1, `${error.message}\n`));
    child.on('close', (code) => {
      if (timedOut) {
        // Whatever the command left running in its group goes too.
        signalGroup(child, 'SIGKILL');
        finish(-1, `Command timed out after ${command.timeout} seconds\n`);
      } else finish(code ?? -1);
    });
  }

  private record(event: BashEvent): void {
    this.store.append(event);
    this.lastEventAt = Date.now();
    for (const listener of this.listeners) listener(event);
  }

  /** A command the server stopped during (no final output) gets one, exit code -1, so no client waits forever. */
  private closeInterrupted(): void {
    for (const { commandId, nextOrder } of this.store.unfinishedCommands()) {
      this.record({
        kind: 'BashOutput',
        id: newEventId(),
        timestamp: now(),
        command_id: commandId,
        order: nextOrder,
        exit_code: -1,
        stdout: null,
        stderr: 'The server stopped while the command ran.\n',
      });
    }
  }
}

function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // The group is gone already.
  }
}
