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
 * or SIGTERM arrives meanwhile, the process exits at once with status 1. Once `close` is done, anything still
 * pending (a filesystem call that never returns) cannot keep the process alive past the deadline either.
 */
export async function closeWithin(
  close: () => Promise<void>,
  deadlineMs: number,
  say: (line: string) => void,
): Promise<void> {
  let closed = false;
  const exitNow = (why: string) => {
    if (!closed) say(`${why}; exiting now`);
    process.exit(closed ? (process.exitCode ?? 0) : 1);
  };
  const again = (signal: NodeJS.Signals) => exitNow(`second stop request (${signal})`);
  for (const name of STOP_SIGNALS) process.on(name, again);
  setTimeout(() => exitNow(`not stopped within ${deadlineMs / 1000} s`), deadlineMs).unref();
  await close();
  closed = true;
  for (const name of STOP_SIGNALS) process.off(name, again);
}
