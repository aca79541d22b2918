import { spawn } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments } from 'yaml';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');
export const CHART = join(ROOT, 'deploy/helm/bosun');
export const EXAMPLE = join(CHART, 'examples/production.yaml');

export interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `node scripts/helm.mjs ARGS` (the pinned Helm, unpacked on first use), as `npm run chart:template` does. */
export function helm(args: readonly string[], env: Record<string, string> = {}): Promise<Run> {
  return new Promise((done, fail) => {
    const options = { cwd: ROOT, env: { ...process.env, ...env } };
    const child = spawn(process.execPath, [join(ROOT, 'scripts/helm.mjs'), ...args], options);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on('error', fail);
    child.on('close', (status) => done({ status, stdout, stderr }));
  });
}

/** A rendered Kubernetes object, as YAML gives it. */
export interface KubeObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  [field: string]: unknown;
}

/**
 * `helm template` on the chart with these flags: the objects, or an error carrying Helm's message. `yaml: '1.1'`
 * reads them as Helm hands them to the API server (YAML 1.1: `defaultMode: 0440` is octal).
 */
export async function render(args: readonly string[] = [], options: { yaml?: '1.1' } = {}): Promise<KubeObject[]> {
  const run = await helm(['template', '--namespace', 'bosun', ...args]);
  if (run.status !== 0) throw new Error(`helm template ${args.join(' ')} failed: ${run.stderr}`);
  return parseAllDocuments(run.stdout, { version: options.yaml ?? '1.2' })
    .map((document) => document.toJS() as KubeObject | null)
    .filter((object): object is KubeObject => object !== null);
}

/** The message of a refused render (its exit status not 0), else an error. */
export async function refusal(args: readonly string[]): Promise<string> {
  const run = await helm(['template', '--namespace', 'bosun', ...args]);
  if (run.status === 0) throw new Error(`helm template ${args.join(' ')} was accepted`);
  return run.stderr;
}

export function find(objects: readonly KubeObject[], kind: string, name: string): KubeObject {
  const found = objects.find((object) => object.kind === kind && object.metadata.name === name);
  if (!found)
    throw new Error(`no ${kind} ${name} among ${objects.map((o) => `${o.kind}/${o.metadata.name}`).join(', ')}`);
  return found;
}
