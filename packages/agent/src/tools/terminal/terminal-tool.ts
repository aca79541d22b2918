import type { ActionOf } from '@bosun/protocol';
import { builtInTool } from '../shared/definition.ts';
import type { ShellEnv, Tool, ToolContext } from '../tool.ts';
import { terminalDescription } from './description.ts';
import { type TerminalObservation, type TerminalReport, terminalObservation } from './format.ts';
import { inputBytes, isControlKey } from './keys.ts';
import { ShellSession } from './shell-session.ts';

export type TerminalAction = ActionOf<'TerminalAction'>;
export type { TerminalObservation } from './format.ts';

export interface TerminalToolOptions {
  /** No new output for this long returns control to the agent (exit code -1) while the command runs on. */
  softTimeoutMs?: number;
  /** Output longer than this is cut in the middle (the full output is saved to a file). */
  maxOutputChars?: number;
  /**
   * Extra environment of the shell (secrets included), on top of the server's environment. A function is read
   * before every command: variables that changed since the shell started are exported before the command runs.
   * When it fails (a secret that could not be looked up), the command is not run and the failure is its result.
   */
  env?: ShellEnv;
}

const DEFAULT_SOFT_TIMEOUT_MS = 30_000;
const DEFAULT_MAX_OUTPUT_CHARS = 30_000;
/** How long an interrupted command may take to return to the prompt after Ctrl-C. */
const INTERRUPT_GRACE_MS = 3_000;

const CONTINUED = '[Below is the output of the previous command.]\n';
const TIMEOUT_HELP =
  'You may wait longer to see additional output by sending empty command "", send other commands to interact with ' +
  'the current process (with `is_input` true), send keys ("C-c", "C-z", "C-d") to interrupt/kill the previous ' +
  'command before sending your new command, or use the `timeout` parameter of the terminal for future commands.';

/**
 * The `terminal` tool: a persistent bash (one per tool instance, i.e. per conversation), started lazily in the
 * workspace. One action at a time; a command still running after a timeout keeps running between actions.
 */
export function createTerminalTool(options: TerminalToolOptions = {}): Tool<TerminalAction, TerminalObservation> {
  const softTimeoutMs = options.softTimeoutMs ?? DEFAULT_SOFT_TIMEOUT_MS;
  const maxOutputChars = options.maxOutputChars ?? DEFAULT_MAX_OUTPUT_CHARS;
  let session: ShellSession | undefined;
  /** The extra environment `session` has now. */
  let sessionEnv: Record<string, string> = {};
  /** Whether `session` was started by the action under way (with the environment just read). */
  let justStarted = false;
  let closed = false;
  const currentEnv = async () => (typeof options.env === 'function' ? options.env() : (options.env ?? {}));
  let queue: Promise<unknown> = Promise.resolve();

  async function shell(context: ToolContext): Promise<ShellSession> {
    if (session && session.exitStatus === undefined) return session;
    await dropSession();
    const env = { ...(await currentEnv()) };
    const started = await ShellSession.start({ cwd: context.workspace, env: shellEnv(env) });
    if (closed) {
      await started.close();
      throw new Error('the terminal is closed');
    }
    session = started;
    sessionEnv = env;
    justStarted = true;
    return started;
  }

  async function dropSession(): Promise<void> {
    const current = session;
    session = undefined;
    await current?.close();
  }

  function observe(report: TerminalReport, context: ToolContext): Promise<TerminalObservation> {
    return terminalObservation(report, context, maxOutputChars);
  }

  function failure(command: string, message: string, context: ToolContext): Promise<TerminalObservation> {
    return observe({ command, output: message, exitCode: -1, isError: true, pid: session?.pid }, context);
  }

  /** Waits for the running command and reports what it printed meanwhile. */
  async function follow(
    shell: ShellSession,
    action: TerminalAction,
    context: ToolContext,
    prefix: string,
  ): Promise<TerminalObservation> {
    const hardSeconds = action.timeout != null && action.timeout > 0 ? action.timeout : undefined;
    const outcome = await shell.wait(
      hardSeconds !== undefined
        ? { deadline: Date.now() + hardSeconds * 1000, signal: context.signal }
        : { quietMs: softTimeoutMs, signal: context.signal },
    );
    const report: TerminalReport = { command: action.command, exitCode: -1, prefix, pid: shell.pid };
    let final = outcome;
    if (outcome === 'deadline' || outcome === 'aborted') {
      shell.interrupt();
      final = await shell.wait({ deadline: Date.now() + INTERRUPT_GRACE_MS });
      const stopped = final === 'done' || final === 'exited';
      report.timeout = outcome === 'deadline';
      report.suffix =
        outcome === 'deadline'
          ? stopped
            ? `\n[The command timed out after ${hardSeconds} seconds and was interrupted with Ctrl-C.]`
            : `\n[The command timed out after ${hardSeconds} seconds; Ctrl-C was sent but it is still running. ${TIMEOUT_HELP}]`
          : stopped
            ? '\n[The command was interrupted with Ctrl-C because the run was stopped.]'
            : `\n[The run was stopped; Ctrl-C was sent to the command but it is still running. ${TIMEOUT_HELP}]`;
    } else if (outcome === 'quiet') {
      report.suffix = `\n[The command has no new output after ${seconds(softTimeoutMs)} seconds. ${TIMEOUT_HELP}]`;
    } else if (outcome === 'full') {
      report.suffix = `\n[The command is still running and has printed a lot of output. ${TIMEOUT_HELP}]`;
    }
    if (final === 'done') {
      const result = shell.takeResult();
      report.exitCode = result?.exitCode ?? -1;
    } else if (final === 'exited') {
      report.exitCode = shell.exitStatus ?? -1;
      report.suffix = `${report.suffix ?? ''}\n[The shell exited; a new shell will be started for the next command.]`;
    }
    report.output = shell.take();
    report.cwd = shell.cwd;
    if (final === 'exited') await dropSession();
    return observe(report, context);
  }

  async function execute(action: TerminalAction, context: ToolContext): Promise<TerminalObservation> {
    const command = action.command ?? '';
    const trimmed = command.trim();
    const isInput = action.is_input === true;
    if (action.reset && isInput) return failure(command, 'Cannot use `reset` together with `is_input`.', context);
    if (closed) return failure(command, 'The terminal is closed.', context);
    if (context.signal.aborted) return failure(command, 'The command was not run: the run was stopped.', context);

    let prefix = '';
    if (action.reset) {
      await dropSession();
      prefix =
        'Terminal session has been reset: a new shell was started. All previous environment variables, ' +
        'session state and running processes are gone.\n\n';
    }
    let current: ShellSession;
    justStarted = false;
    try {
      current = await shell(context);
    } catch (error) {
      return failure(command, `Could not start the shell: ${(error as Error).message}`, context);
    }
    if (action.reset && trimmed === '') {
      return observe({ command, exitCode: 0, prefix: prefix.trimEnd(), cwd: current.cwd, pid: current.pid }, context);
    }

    const asInput = isInput || (current.busy && isControlKey(trimmed));
    if (!asInput && trimmed !== '' && !current.busy && !isControlKey(trimmed)) {
      try {
        const env = justStarted ? sessionEnv : { ...(await currentEnv()) };
        const changed = Object.fromEntries(Object.entries(env).filter(([name, value]) => sessionEnv[name] !== value));
        await current.run(command, changed);
        sessionEnv = env;
      } catch (error) {
        return failure(command, `Could not run the command: ${(error as Error).message}`, context);
      }
      return follow(current, action, context, prefix);
    }
    if (current.busy) {
      if (asInput && trimmed !== '') {
        current.send(inputBytes(isControlKey(trimmed) ? trimmed : command));
        return follow(current, action, context, CONTINUED);
      }
      if (trimmed === '') return follow(current, action, context, CONTINUED);
      const output = current.take();
      const suffix = `\n[Your command "${context.mask(trimmed)}" is NOT executed. The previous command is still running - You CANNOT send new commands until the previous command is completed. By setting \`is_input\` to \`true\`, you can interact with the current process: ${TIMEOUT_HELP}]`;
      return observe(
        { command, output, exitCode: -1, isError: true, prefix: output ? CONTINUED : '', suffix, pid: current.pid },
        context,
      );
    }
    // Nothing is running: report a command that finished since it was last read, or say there is nothing.
    const finished = current.takeResult();
    if (finished) {
      const report: TerminalReport = {
        command,
        output: current.take(),
        exitCode: finished.exitCode,
        prefix: CONTINUED,
        cwd: finished.cwd,
        pid: current.pid,
      };
      if (trimmed !== '') {
        report.isError = true;
        report.suffix = '\n[The command had already finished; your input was not sent.]';
      }
      return observe(report, context);
    }
    return failure(
      command,
      trimmed === '' && !isInput
        ? 'No previous running command to retrieve logs from.'
        : 'No previous running command to interact with.',
      context,
    );
  }

  return builtInTool('terminal', 'Terminal', {
    description: terminalDescription(seconds(softTimeoutMs)),
    hints: { readOnly: false, destructive: true, idempotent: false, openWorld: true },
    execute(action, context) {
      const result = queue.then(() => execute(action, context));
      queue = result.catch(() => undefined);
      return result;
    },
    async close() {
      closed = true;
      await dropSession();
      await queue;
    },
  });
}

function seconds(ms: number): number {
  return Number((ms / 1000).toFixed(3));
}

/**
 * Variables of the server's environment the agent's shell never inherits: Bosun's own settings (session keys,
 * the default model's key) and anything that looks like a credential. The conversation's secrets come in
 * through `extra`. Hook commands (`hooks/command.ts`) never inherit them either.
 */
export const SERVER_ONLY = /^BOSUN_|API_KEY|SECRET|TOKEN|PASSWORD|CREDENTIAL|PRIVATE_KEY/i;

/** The shell's environment: the server's (less its secrets), then `extra`, then what the session needs. */
function shellEnv(extra: Record<string, string> | undefined): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && !SERVER_ONLY.test(key)) env[key] = value;
  }
  delete env.PROMPT_COMMAND;
  Object.assign(env, { PAGER: 'cat', GIT_PAGER: 'cat' }, extra);
  return Object.assign(env, { TERM: 'dumb', PS1: '', PS2: '' });
}
