import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { constants } from 'node:os';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { AgentServerClient } from '@bosun/client';
import { type AgentActivity, agentActivityOf } from '../lifecycle.ts';
import { AgentBridge } from './bridges.ts';
import { getJson } from './local-http.ts';

export interface SandboxProcessOptions {
  /** Everything to run: the wrappers (cgroups, user, rlimits), bwrap and its arguments, the agent server's. */
  argv: readonly string[];
  /** Its whole environment (nothing of the runtime's own is inherited). */
  env: Record<string, string>;
  cwd: string;
  logFile: string;
  sessionKey: string;
  startTimeoutMs: number;
  /** The descriptor bwrap writes its info to (its first pid); absent without bwrap. */
  infoFd?: number;
  /** Open descriptors of this process the child gets, by the number it sees them as. */
  passFds?: Record<number, number>;
  /** With a network of its own: where its agent server's Unix socket is, from its first process's root. */
  agentSocket?: string;
  /** Runs once bwrap names the sandbox's first process, before its agent server can listen. */
  onFirstPid?: (pid: number) => Promise<void>;
}

const LISTENING = /agent server listening on (http:\/\/\S+)/;
const KEPT_STDERR_LINES = 20;

/** How it ended: the exit code or signal (bwrap reports a signal as 128 + its number) and its last stderr lines. */
export interface Ending {
  code: number | null;
  signal: NodeJS.Signals | null;
  stderr: string[];
}

/**
 * One sandbox's process tree: bwrap (or, unsafely, the agent server itself) in a child process. The agent server
 * is reached at `url`: its own loopback port, or a bridge to it when it has a network of its own. The session key
 * reaches it through its environment, never argv (command lines are visible to every user of the machine).
 */
export class SandboxProcess {
  private bridge: AgentBridge | undefined;
  private firstPid: number | undefined;
  private agentUrl = '';

  private constructor(
    private readonly child: ChildProcess,
    readonly ended: Promise<Ending>,
  ) {}

  /** Where its agent server answers, from the runtime's side. */
  get url(): string {
    return this.agentUrl;
  }

  /** When bytes last went through its bridge (none without one). */
  get lastTrafficAt(): number | undefined {
    return this.bridge?.lastTrafficAt;
  }

  /**
   * What its agent server says of its activity, asked past its bridge (the runtime's asking is no use of it):
   * `idle_time` (seconds) and how many conversations run; undefined when it does not answer.
   */
  async agentActivity(key: string): Promise<AgentActivity | undefined> {
    const target = this.bridge ? { socketPath: this.bridge.socketPath } : { url: this.agentUrl };
    const [info, running] = await Promise.all([
      getJson(target, '/server_info'),
      getJson(target, '/api/conversations/count?status=running', { 'X-Session-API-Key': key }),
    ]);
    return agentActivityOf(info, running);
  }

  /** Starts it and resolves once its agent server answers with the key; rejects with why not (it is then gone). */
  static async start(options: SandboxProcessOptions): Promise<SandboxProcess> {
    const [program = '', ...args] = options.argv;
    const stdio: ('pipe' | 'ignore' | number)[] = ['ignore', 'pipe', 'pipe'];
    if (options.infoFd !== undefined) stdio[options.infoFd] = 'pipe';
    for (const [childFd, fd] of Object.entries(options.passFds ?? {})) stdio[Number(childFd)] = fd;
    for (let fd = 0; fd < stdio.length; fd++) stdio[fd] ??= 'ignore';
    const child = spawn(program, args, { cwd: options.cwd, env: options.env, stdio });
    const log = createWriteStream(options.logFile, { flags: 'a', mode: 0o600 });
    log.on('error', () => {});
    const redact = (line: string) => line.split(options.sessionKey).join('***');
    const stderr: string[] = [];
    createInterface({ input: child.stderr as Readable }).on('line', (line) => {
      stderr.push(redact(line));
      if (stderr.length > KEPT_STDERR_LINES) stderr.shift();
      log.write(`${line}\n`);
    });
    const ended = new Promise<Ending>((resolve) => {
      child.once('error', (error) => {
        stderr.push(`could not start ${program}: ${error.message}`);
        resolve({ code: null, signal: null, stderr });
      });
      child.once('exit', (code, signal) => {
        const done = () => {
          log.end();
          resolve({ ...bwrapEnding(code, signal, options.infoFd !== undefined), stderr });
        };
        // The last stderr lines arrive with the pipe's end, which may follow the exit.
        if (child.stderr?.closed) done();
        else child.stderr?.once('close', done);
      });
    });
    const sandbox = new SandboxProcess(child, ended);
    const info = options.infoFd === undefined ? undefined : firstPid(child.stdio[options.infoFd] as Readable);
    // When bwrap fails before it says anything, its ending tells why; this rejection adds nothing.
    info?.catch(() => {});
    try {
      sandbox.agentUrl = await withDeadline(sandbox.untilReady(options, log, info), options.startTimeoutMs, ended);
    } catch (error) {
      child.kill('SIGKILL');
      await ended;
      await sandbox.bridge?.close();
      throw error;
    }
    return sandbox;
  }

  private async untilReady(
    options: SandboxProcessOptions,
    log: NodeJS.WritableStream,
    info: Promise<number> | undefined,
  ): Promise<string> {
    const listening = untilListening(this.child, log);
    this.firstPid = await info;
    if (this.firstPid !== undefined) await options.onFirstPid?.(this.firstPid);
    const url = await listening;
    if (options.agentSocket !== undefined) {
      this.bridge = await AgentBridge.open(`/proc/${this.firstPid}/root${options.agentSocket}`);
    }
    const reached = this.bridge?.url ?? url;
    const client = new AgentServerClient({ baseUrl: reached, sessionApiKey: options.sessionKey });
    await client.ready();
    await client.get('/api/tools/');
    return reached;
  }

  /**
   * Asks its agent server to stop (SIGTERM: bwrap passes no signal on, so it goes to the agent server itself, the
   * only child of the sandbox's first process), then kills the whole sandbox after `graceMs`.
   */
  async stop(graceMs: number): Promise<Ending> {
    if (this.child.exitCode === null && this.child.signalCode === null) {
      const agent = this.firstPid === undefined ? undefined : await childrenOf(this.firstPid);
      if (agent && agent.length > 0) for (const pid of agent) signal(pid, 'SIGTERM');
      else this.child.kill('SIGTERM');
      const timer = setTimeout(() => this.child.kill('SIGKILL'), graceMs);
      await this.ended;
      clearTimeout(timer);
    }
    await this.bridge?.close();
    return this.ended;
  }

  /** Closes what the runtime holds open for it once it ended by itself. */
  async release(): Promise<void> {
    await this.bridge?.close();
  }
}

/** bwrap exits with its command's code, or 128 + the number of the signal that killed it. */
function bwrapEnding(code: number | null, signal: NodeJS.Signals | null, bwrap: boolean) {
  if (bwrap && code !== null && code > 128) {
    const name = Object.entries(constants.signals).find(([, number]) => number === code - 128)?.[0];
    if (name) return { code: null, signal: name as NodeJS.Signals };
  }
  return { code, signal };
}

/** The sandbox's first process, in the host's numbering, from bwrap's JSON info. */
function firstPid(info: Readable): Promise<number> {
  return new Promise((resolve, reject) => {
    let text = '';
    info.setEncoding('utf8');
    info.on('data', (chunk: string) => {
      text += chunk;
      const pid = /"child-pid":\s*(\d+)/.exec(text)?.[1];
      if (pid) resolve(Number(pid));
    });
    info.once('end', () => reject(new Error('bwrap did not say which process it started')));
    info.once('error', reject);
  });
}

function untilListening(child: ChildProcess, log: NodeJS.WritableStream): Promise<string> {
  return new Promise((resolve) => {
    let found = false;
    createInterface({ input: child.stdout as Readable }).on('line', (line) => {
      log.write(`${line}\n`);
      const match = found ? null : LISTENING.exec(line);
      if (match?.[1]) {
        found = true;
        resolve(match[1].replace('localhost', '127.0.0.1'));
      }
    });
  });
}

/** `work`'s answer, or a rejection when the deadline passes or the process ends first (saying how). */
async function withDeadline<T>(work: Promise<T>, timeoutMs: number, ended: Promise<Ending>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`its agent server did not start within ${timeoutMs / 1000} s`)),
      timeoutMs,
    );
  });
  const early = ended.then((ending) => Promise.reject(new EndedEarly(ending)));
  try {
    return await Promise.race([work, deadline, early]);
  } finally {
    clearTimeout(timer);
  }
}

/** The process ended before its agent server answered. */
export class EndedEarly extends Error {
  constructor(readonly ending: Ending) {
    super('its agent server ended while starting');
  }
}

async function childrenOf(pid: number): Promise<number[]> {
  const text = await readFile(`/proc/${pid}/task/${pid}/children`, 'utf8').catch(() => '');
  return text.split(/\s+/).filter(Boolean).map(Number);
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // Already gone.
  }
}
