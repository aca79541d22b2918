/** Resolves when the process is asked to stop (SIGINT or SIGTERM), so a server command can close cleanly. */
export function untilStopped(): Promise<void> {
  return new Promise((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  });
}
