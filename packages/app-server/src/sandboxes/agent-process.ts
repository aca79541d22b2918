import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { AgentServerClient } from '@bosun/client';

export interface AgentProcessOptions {
  /** The command before `agent-server` (see agent-command.ts). */
  command: string[];
  /** Its own data directory (conversations, event logs, its secrets key). */
  dataDir: string;
  /** Its workspace: conversations' working directories must be inside it. */
  workspace: string;
  /** Where its standard output and error are appended. */
  logFile: string;
  sessionKey: string;
  env: Record<string, string>;
  /** How long it may take to say where it listens. */
  startTimeoutMs: number;
}

/** The environment a sandbox inherits from the app: nothing secret (no BOSUN_* setting, no credential). */
const INHERITED_ENV = ['PATH', 'HOME', 'USER', 'LOGNAME', 'SHELL', 'LANG', 'LC_ALL', 'TZ', 'TMPDIR', 'TERM'];
const LISTENING = /agent server listening on (http:\/\/\S+)/;
const KEPT_STDERR_LINES = 20;

/** Why a sandbox process is gone, for a person (no secret). */
export type ExitReason = string;

/**
 * One agent server in a child process on a loopback port of its own. The session key reaches it through its
 * environment (never argv: command lines are visible to every user of the machine).
 */
export class AgentProcess {
  readonly url: string;
  /** Resolves with why it ended, whoever ended it. */
  readonly exited: Promise<ExitReason>;
  private constructor(
    private readonly child: ChildProcess,
    url: string,
    exited: Promise<ExitReason>,
  ) {
    this.url = url;
    this.exited = exited;
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  /** Starts it and resolves once it listens; rejects with why it did not (it is then stopped). */
  static async start(options: AgentProcessOptions): Promise<AgentProcess> {
    const [program = '', ...args] = options.command;
    const child = spawn(
      program,
      [...args, 'agent-server', '--host', '127.0.0.1', '--port', '0', '--data-dir', options.dataDir],
      {
        cwd: options.workspace,
        env: sandboxEnv(options),
        stdio: ['pipe', 'pipe', 'pipe'],
      },
    );
    const log = createWriteStream(options.logFile, { flags: 'a' });
    // A line read after the log was closed (or a full disk) must not end the app.
    log.on('error', () => {});
    const stderrTail: string[] = [];
    const redact = (line: string) => line.split(options.sessionKey).join('***');
    createInterface({ input: child.stderr as NodeJS.ReadableStream }).on('line', (line) => {
      stderrTail.push(redact(line));
      if (stderrTail.length > KEPT_STDERR_LINES) stderrTail.shift();
      log.write(`${line}\n`);
    });
    const exited = new Promise<ExitReason>((resolve) => {
      child.once('error', (error) => resolve(`could not start ${program}: ${error.message}`));
      child.once('exit', (code, signal) => {
        const how = signal ? `killed by ${signal}` : `exited with code ${code}`;
        // The last stderr lines arrive with the pipe's end, which may follow the exit.
        child.stderr?.once('close', () => {
          log.end();
          resolve(stderrTail.length > 0 ? `${how}: ${stderrTail.slice(-5).join(' | ')}` : how);
        });
        if (child.stderr?.closed) child.stderr.emit('close');
      });
    });
    const url = await untilReady(child, exited, log, options).catch(async (error: Error) => {
      child.kill('SIGKILL');
      await exited;
      throw error;
    });
    return new AgentProcess(child, url, exited);
  }

  /** SIGTERM, then SIGKILL when it has not ended within `graceMs`; resolves when it has ended. */
  async stop(graceMs: number): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), graceMs);
    await this.exited;
    clearTimeout(timer);
  }
}

function sandboxEnv({ env, sessionKey, workspace }: AgentProcessOptions): NodeJS.ProcessEnv {
  const inherited = Object.fromEntries(
    INHERITED_ENV.flatMap((name) => (process.env[name] === undefined ? [] : [[name, process.env[name]]])),
  );
  return {
    ...inherited,
    ...env,
    BOSUN_SESSION_API_KEYS: sessionKey,
    BOSUN_WORKSPACE_ROOT: workspace,
    BOSUN_LOG_LEVEL: env.BOSUN_LOG_LEVEL ?? 'info',
  };
}

/** Waits until it listens, then until its agent server is ready and takes the session key. */
async function untilReady(
  child: ChildProcess,
  exited: Promise<ExitReason>,
  log: NodeJS.WritableStream,
  options: AgentProcessOptions,
): Promise<string> {
  const started = Date.now();
  const url = await untilListening(child, exited, log, options.startTimeoutMs);
  const timeoutMs = Math.max(1, options.startTimeoutMs - (Date.now() - started));
  const client = new AgentServerClient({ baseUrl: url, sessionApiKey: options.sessionKey, timeoutMs });
  await client.ready();
  await client.listTools();
  return url;
}

/** Reads its standard output (copied to the log) until it says where it listens. */
function untilListening(
  child: ChildProcess,
  exited: Promise<ExitReason>,
  log: NodeJS.WritableStream,
  timeoutMs: number,
): Promise<string> {
  return new Promise((resolve, reject) => {
    let url: string | undefined;
    const timer = setTimeout(
      () => reject(new Error(`its agent server did not start within ${timeoutMs / 1000} s`)),
      timeoutMs,
    );
    createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (line) => {
      log.write(`${line}\n`);
      const found = url === undefined ? LISTENING.exec(line) : null;
      if (found?.[1]) {
        url = found[1].replace('localhost', '127.0.0.1');
        clearTimeout(timer);
        resolve(url);
      }
    });
    void exited.then((reason) => {
      clearTimeout(timer);
      reject(new Error(`its agent server ${reason}`));
    });
  });
}
