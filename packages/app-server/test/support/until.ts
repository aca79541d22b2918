/**
 * Reads until `done` holds (the state that matters, never a fixed sleep), checking every 50 ms, at most `timeoutMs`
 * (20 s unless told).
 */
export async function until<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  what: string,
  timeoutMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A start task once it ended, READY or ERROR, as `read` gives it (a minute at most unless told). */
export function untilSettled<T extends { status: string } | null | undefined>(
  read: () => Promise<T>,
  what: string,
  timeoutMs = 60_000,
): Promise<T> {
  return until(read, (task) => task?.status === 'READY' || task?.status === 'ERROR', what, timeoutMs);
}
