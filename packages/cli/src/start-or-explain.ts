import type { CommandIO } from './command.ts';

/** What to tell the user about a start that was refused, and the exit code; none: an unexpected error. */
export type Refusal = { lines: string[]; exitCode: number } | undefined;

/**
 * Starts a server. A refusal the user can act on (`explain` recognizes it) is printed as `bosun <command>: …`
 * lines and answered with its exit code; any other error is thrown on.
 */
export async function startOrExplain<T extends object>(
  io: CommandIO,
  command: string,
  start: () => Promise<T>,
  explain: (error: unknown) => Refusal,
): Promise<T | number> {
  try {
    return await start();
  } catch (error) {
    const refusal = explain(error);
    if (!refusal) throw error;
    for (const line of refusal.lines) io.stderr.write(`bosun ${command}: ${line}\n`);
    return refusal.exitCode;
  }
}
