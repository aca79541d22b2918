import type { CommandIO } from './command.ts';

const STOP_SIGNALS = ['SIGINT', 'SIGTERM'] as const;

/** Resolves when the process is asked to stop (SIGINT or SIGTERM), with the signal, so a command can close. */
export function untilStopped(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const stop = (signal: NodeJS.Signals) => {
      for (const name of STOP_SIGNALS) process.off(name, stop);
      resolve(signal);
    };
    for (const name of STOP_SIGNALS) process.on(name, stop);
  });
}

/**
 * Runs `close` (after a stop request), bounded: when it has not finished within `deadlineMs`, or a second SIGINT
 * or SIGTERM arrives meanwhile, the process ends at once. So does a process that `close` left with something
 * still pending at the deadline. It ends by SIGKILL on itself: `process.exit` waits for libuv's threads, and one
 * blocked in a system call (opening a FIFO, a hung network file system) never returns. Like any kill -9, that
 * loses nothing acknowledged: what the server acknowledged is committed.
 */
export async function closeWithin(
  close: () => Promise<void>,
  deadlineMs: number,
  say: (line: string) => void,
): Promise<void> {
  await stopRequests({ stopping: true }, say).close(close, deadlineMs);
}

/** The stop requests the running server command watches (see `watchStopRequests`). */
let processRequests: StopRequests | undefined;

/**
 * Watches SIGINT and SIGTERM until the returned function is called, for `closeWhenStopped`. A server command
 * watches before it starts: a stop request arriving while it starts (or just after it says it listens) is then
 * kept, not met by the default action that ends the process at once, closing nothing.
 */
export function watchStopRequests(): () => void {
  const requests = stopRequests({ stopping: false });
  processRequests = requests;
  return () => {
    requests.release();
    if (processRequests === requests) processRequests = undefined;
  };
}

/**
 * A server command's end: waits for SIGINT or SIGTERM, says it is stopping (`doing`: what stopping involves),
 * then runs `close` within `deadlineMs` (see `closeWithin`). One handler stays on both signals from the wait to
 * the end of `close`: had it been taken off and put back, a second signal arriving in between would have met
 * the default action and ended the process by that signal, without a word.
 */
export async function closeWhenStopped(
  io: CommandIO,
  command: string,
  close: () => Promise<void>,
  { deadlineMs, doing = '' }: { deadlineMs: number; doing?: string },
): Promise<void> {
  const requests = processRequests ?? stopRequests({ stopping: false });
  requests.say = (line) => {
    io.stderr.write(`bosun ${command}: ${line}\n`);
  };
  const signal = await requests.first;
  io.stdout.write(`Stopping (${signal}): ${doing}at most ${deadlineMs / 1000} s (again to exit at once)\n`);
  await requests.close(close, deadlineMs);
}

interface StopRequests {
  /** The first stop request (unless the process was `stopping` already). */
  first: Promise<NodeJS.Signals>;
  /** Where the process says why it ends at once. */
  say: (line: string) => void;
  /** Runs the closing bounded by `deadlineMs`, then lets the signals go. */
  close(close: () => Promise<void>, deadlineMs: number): Promise<void>;
  /** Lets the signals go. */
  release(): void;
}

/** The stop requests of a process from now on: after the first (or when `stopping`), each ends it at once. */
function stopRequests(
  { stopping }: { stopping: boolean },
  say: (line: string) => void = (line) => process.stderr.write(`bosun: ${line}\n`),
): StopRequests {
  let resolveFirst: (signal: NodeJS.Signals) => void = () => {};
  const first = new Promise<NodeJS.Signals>((resolve) => {
    resolveFirst = resolve;
  });
  const release = () => {
    for (const name of STOP_SIGNALS) process.off(name, onSignal);
  };
  const requests: StopRequests = { first, say, close, release };
  const killNow = (why: string) => {
    requests.say(`${why}; exiting now`);
    process.kill(process.pid, 'SIGKILL');
  };
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) return killNow(`second stop request (${signal})`);
    stopping = true;
    resolveFirst(signal);
  };
  for (const name of STOP_SIGNALS) process.on(name, onSignal);
  async function close(closing: () => Promise<void>, deadlineMs: number): Promise<void> {
    let closed = false;
    setTimeout(
      () =>
        killNow(
          closed
            ? 'stopped, but a call still pending keeps the process alive'
            : `not stopped within ${deadlineMs / 1000} s`,
        ),
      deadlineMs,
    ).unref();
    await closing();
    closed = true;
    release();
  }
  return requests;
}
