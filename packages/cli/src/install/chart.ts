import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

/** The chart's values as Helm merges them: a tree of plain YAML values. */
export type RawValues = Record<string, unknown>;

const CHART_PATH = join('deploy', 'helm', 'bosun');

/**
 * The Bosun chart's directory: `chart` when given, else `deploy/helm/bosun` of the installation this module is part
 * of (found upwards, the same from the sources and from the bundle in `packages/cli/dist`).
 */
export function chartDir(chart: string | undefined): string {
  if (chart !== undefined) {
    const dir = resolve(chart);
    if (!existsSync(join(dir, 'Chart.yaml'))) throw new Error(`--chart ${chart}: no Chart.yaml there`);
    return dir;
  }
  for (let dir = dirname(fileURLToPath(import.meta.url)); dirname(dir) !== dir; dir = dirname(dir)) {
    if (existsSync(join(dir, CHART_PATH, 'Chart.yaml'))) return join(dir, CHART_PATH);
  }
  throw new Error(
    `the Bosun chart (${CHART_PATH}) was not found above this installation: give its directory with --chart`,
  );
}

/** The chart's values.yaml with each file of `files` merged over it in order, as `helm -f` does. */
export function chartValues(dir: string, files: readonly string[]): RawValues {
  let values = readYamlMap(join(dir, 'values.yaml'), 'the chart values');
  for (const file of files) values = mergeValues(values, readYamlMap(file, `-f ${file}`));
  return values;
}

/** The chart's `kubeVersion` constraint (e.g. `>=1.29.0-0`), if it has one. */
export function chartKubeVersion(dir: string): string | undefined {
  const chart = readYamlMap(join(dir, 'Chart.yaml'), 'Chart.yaml');
  return typeof chart.kubeVersion === 'string' ? chart.kubeVersion : undefined;
}

function readYamlMap(file: string, what: string): RawValues {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new Error(`${what}: cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? error}`);
  }
  let parsed: unknown;
  try {
    parsed = parse(text);
  } catch (error) {
    throw new Error(`${what}: ${file} is not YAML: ${(error as Error).message}`);
  }
  if (parsed === null || parsed === undefined) return {};
  if (!isMap(parsed)) throw new Error(`${what}: ${file} is not a map of values`);
  return parsed;
}

/** Helm's merge: maps merge key by key, anything else replaces, and null removes the key. */
export function mergeValues(base: RawValues, over: RawValues): RawValues {
  const merged: RawValues = { ...base };
  for (const [key, value] of Object.entries(over)) {
    const current = merged[key];
    if (value === null) delete merged[key];
    else if (isMap(value) && isMap(current)) merged[key] = mergeValues(current, value);
    else merged[key] = value;
  }
  return merged;
}

function isMap(value: unknown): value is RawValues {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
