/** The outcome of one preflight check: fail stops an install, warn is worth a look, pass is fine. */
export type Outcome = 'pass' | 'warn' | 'fail';

export interface CheckResult {
  outcome: Outcome;
  /** What was checked (e.g. `storage class gp3`). */
  check: string;
  /** What was found. */
  detail: string;
  /** What to do about a warning or failure. */
  fix?: string;
}

export const pass = (check: string, detail: string): CheckResult => ({ outcome: 'pass', check, detail });
export const warn = (check: string, detail: string, fix: string): CheckResult => ({
  outcome: 'warn',
  check,
  detail,
  fix,
});
export const fail = (check: string, detail: string, fix: string): CheckResult => ({
  outcome: 'fail',
  check,
  detail,
  fix,
});

/** One line per check (its fix on the next), then the counts. */
export function preflightReport(results: readonly CheckResult[]): string {
  const lines = results.flatMap(({ outcome, check, detail, fix }) => [
    `${outcome}  ${check}: ${detail}`,
    ...(fix ? [`      fix: ${fix}`] : []),
  ]);
  const count = (outcome: Outcome) => results.filter((result) => result.outcome === outcome).length;
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  const summary = `${count('pass')} passed, ${plural(count('warn'), 'warning')}, ${count('fail')} failed`;
  return `${[...lines, summary].join('\n')}\n`;
}

/** `work`, or an error saying it took longer than `ms`. */
export function within<T>(ms: number, what: string, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms / 1000}s`)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}
