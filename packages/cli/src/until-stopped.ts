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
  await stopRequests(say, { stopping: true }).close(close, deadlineMs);
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
  const requests = stopRequests((line) => io.stderr.write(`bosun ${command}: ${line}\n`), { stopping: false });
  const signal = await requests.first;
  io.stdout.write(`Stopping (${signal}): ${doing}at most ${deadlineMs / 1000} s (again to exit at once)\n`);
  await requests.close(close, deadlineMs);
}

/**
 * The stop requests of a process from now on: `first` resolves with the first one (unless it is `stopping`
 * already); every later one ends the process at once. `close` runs the closing bounded by `deadlineMs`, then
 * lets the signals go.
 */
function stopRequests(say: (line: string) => void, { stopping }: { stopping: boolean }) {
  let resolveFirst: (signal: NodeJS.Signals) => void = () => {};
  const first = new Promise<NodeJS.Signals>((resolve) => {
    resolveFirst = resolve;
  });
  const killNow = (why: string) => {
    say(`${why}; exiting now`);
    process.kill(process.pid, 'SIGKILL');
  };
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) return killNow(`second stop request (${signal})`);
    stopping = true;
    resolveFirst(signal);
  };
  for (const name of STOP_SIGNALS) process.on(name, onSignal);
  return {
    first,
    async close(close: () => Promise<void>, deadlineMs: number): Promise<void> {
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
      await close();
      closed = true;
      for (const name of STOP_SIGNALS) process.off(name, onSignal);
    },
  };
}
