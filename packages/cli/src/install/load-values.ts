import { chartDir, chartValues } from './chart.ts';
import { type InstallValues, installValuesOf } from './install-values.ts';

/** The chart (its directory) and its values with the `-f` files merged over them, typed. */
export function loadValues(
  chart: string | undefined,
  files: readonly string[],
): { dir: string; values: InstallValues } {
  const dir = chartDir(chart);
  return { dir, values: installValuesOf(chartValues(dir, files)) };
}
