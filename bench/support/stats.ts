/** Small statistics and formatting helpers shared by the benchmarks. */

/** The `p`-th percentile (0-100) of `values`, nearest-rank; NaN when empty. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank] as number;
}

export interface Summary {
  count: number;
  mean: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
}

export function summarize(values: readonly number[]): Summary {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (p: number) =>
    sorted.length
      ? (sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number)
      : Number.NaN;
  return {
    count: sorted.length,
    mean: sorted.reduce((sum, v) => sum + v, 0) / (sorted.length || 1),
    p50: at(50),
    p90: at(90),
    p99: at(99),
    max: sorted[sorted.length - 1] ?? Number.NaN,
  };
}

/** `label: p50 1.23 ms, p90 ..., p99 ..., max ... (n = ...)` */
export function formatMs(label: string, values: readonly number[]): string {
  const s = summarize(values);
  const f = (v: number) => v.toFixed(v < 10 ? 3 : 1);
  return `${label}: p50 ${f(s.p50)} ms, p90 ${f(s.p90)} ms, p99 ${f(s.p99)} ms, max ${f(s.max)} ms, mean ${f(s.mean)} ms (n = ${s.count})`;
}

export function formatRate(count: number, seconds: number, unit: string): string {
  return `${Math.round(count / seconds).toLocaleString('en-US')} ${unit}/s (${count.toLocaleString('en-US')} in ${seconds.toFixed(2)} s)`;
}

/** A target line: `PASS`/`MISS` with the measured value and the target. */
export function target(label: string, ok: boolean, detail: string): string {
  return `${ok ? 'PASS' : 'MISS'}  ${label}: ${detail}`;
}

export function hrMs(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}
