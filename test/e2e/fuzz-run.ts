import fc from 'fast-check';
import { expect } from 'vitest';
import { type FuzzRequest, describeRequest, problemWith, send } from './fuzz-requests.ts';

/** A fuzz run's size (`BOSUN_FUZZ_RUNS`, else `runs`) and seed (`BOSUN_FUZZ_SEED`, else time-based). */
export function fuzzSettings(runs: number): { runs: number; seed: number } {
  return {
    runs: Number(process.env.BOSUN_FUZZ_RUNS ?? runs),
    seed: Number(process.env.BOSUN_FUZZ_SEED ?? Date.now() % 2 ** 31),
  };
}

export type Reply = { status: number; text: string };

export interface FuzzRun {
  /** The server's base URL. */
  url: string;
  requests: fc.Arbitrary<FuzzRequest>;
  runs: number;
  seed: number;
  /** The longest a request may wait for its answer. */
  withinMs: number;
  /** What is wrong with an answer (default: `problemWith`). */
  problem?: (reply: Reply) => string | undefined;
  /** Runs after each answer found fine (to replace what a request deleted). */
  after?: (request: FuzzRequest, reply: Reply) => Promise<void>;
}

/**
 * Sends `runs` generated requests over real HTTP, each of which must be answered within `withinMs` without a
 * problem (a failure names the request and the seed that replays it); then asserts that the generator reaches past
 * validation: some requests succeed, many are refused. Returns how many answers had each status.
 */
export async function fuzz(run: FuzzRun): Promise<Map<number, number>> {
  let sent = 0;
  const statuses = new Map<number, number>();
  const property = fc.asyncProperty(run.requests, async (request) => {
    sent++;
    const reply = await send(run.url, request, run.withinMs).catch((error: Error) => {
      throw new Error(`${describeRequest(request)}: ${error.message}`);
    });
    statuses.set(reply.status, (statuses.get(reply.status) ?? 0) + 1);
    const problem = (run.problem ?? problemWith)(reply);
    if (problem) throw new Error(`${describeRequest(request)}: ${problem}: ${reply.text.slice(0, 1000)}`);
    await run.after?.(request, reply);
  });
  try {
    await fc.assert(property, { seed: run.seed, numRuns: run.runs, includeErrorInReport: true });
  } catch (error) {
    // fast-check's report names the seed and the shrunk request; this says how to replay it.
    throw new Error(`replay with BOSUN_FUZZ_SEED=${run.seed}\n${(error as Error).message}`);
  }
  expect(sent).toBeGreaterThanOrEqual(run.runs);
  const count = (test: (status: number) => boolean) =>
    [...statuses].filter(([status]) => test(status)).reduce((sum, [, n]) => sum + n, 0);
  const seen = JSON.stringify([...statuses].sort(([a], [b]) => a - b));
  expect(
    count((s) => s < 300),
    seen,
  ).toBeGreaterThan(run.runs / 20);
  expect(
    count((s) => s === 422),
    seen,
  ).toBeGreaterThan(run.runs / 10);
  return statuses;
}
