import { afterEach, beforeEach } from 'vitest';
import { KubeStandIn } from '../../runtime/test/kubernetes/support/kube-stand-in.ts';
import { chartDir, chartKubeVersion, chartValues, mergeValues } from '../src/install/chart.ts';
import { installValuesOf } from '../src/install/install-values.ts';
import type { CheckResult } from '../src/install/preflight/check.ts';
import type { ResolveHost } from '../src/install/preflight/dns-checks.ts';
import { runPreflight } from '../src/install/preflight/run-preflight.ts';
import { certificate, kubeconfigFile, parseSecrets, secretObject, valuesFile } from './install-support.ts';
import { runCli } from './io.ts';

export const EXAMPLE = new URL('../../../deploy/helm/bosun/examples/production.yaml', import.meta.url).pathname;
const GiB = 2 ** 30;

/** The production example with its external database on this machine's PostgreSQL. */
export const LOCAL_DATABASE = { externalDatabase: { host: '127.0.0.1', port: 5432 } };

/** A node of `cpu` CPUs and `memoryGi` GiB. */
export function node(name: string, cpu: string, memory: string) {
  return { apiVersion: 'v1', kind: 'Node', metadata: { name }, status: { capacity: { cpu, memory, pods: '110' } } };
}

export function ingressClass(name: string, isDefault = false) {
  const annotations = isDefault ? { 'ingressclass.kubernetes.io/is-default-class': 'true' } : undefined;
  return {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'IngressClass',
    metadata: { name, ...(annotations ? { annotations } : {}) },
    spec: { controller: 'k8s.io/ingress-nginx' },
  };
}

export function storageClass(name: string, isDefault = false) {
  const annotations = isDefault ? { 'storageclass.kubernetes.io/is-default-class': 'true' } : undefined;
  return {
    apiVersion: 'storage.k8s.io/v1',
    kind: 'StorageClass',
    metadata: { name, ...(annotations ? { annotations } : {}) },
    provisioner: 'stand-in.bosun.dev',
  };
}

/** A kubernetes.io/tls Secret of a certificate for `hosts`. */
export async function tlsSecret(dir: string, namespace: string, name: string, hosts: string[], days = 90) {
  const { cert, key } = await certificate(dir, hosts, days);
  return secretObject(namespace, name, { 'tls.crt': cert, 'tls.key': key }, 'kubernetes.io/tls');
}

/** The Secrets `bosun install secrets` prints for the values files, their placeholders filled in. */
export async function filledSecrets(files: string[], namespace = 'bosun') {
  const run = await runCli(['install', 'secrets', '-n', namespace, ...files.flatMap((file) => ['-f', file])]);
  return parseSecrets(run.stdout).map((secret) => {
    const data = Object.fromEntries(
      Object.entries(secret.stringData).map(([key, value]) => [
        key,
        value.startsWith('REPLACE-ME') ? `filled-${key}` : value,
      ]),
    );
    return secretObject(namespace, secret.metadata.name, data);
  });
}

/**
 * A stand-in where the production example (external database on 127.0.0.1) passes every check: Kubernetes 1.33,
 * the gp3 storage class, the nginx ingress class, two large nodes, certificates for each host, every Secret.
 */
export async function passingCluster(
  dir: string,
  valuesFile: string,
): Promise<{ standIn: KubeStandIn; kubeconfig: string }> {
  const standIn = await KubeStandIn.start(['bosun', 'bosun-sandboxes'], []);
  standIn.put(storageClass('gp3'));
  standIn.put(storageClass('standard', true));
  standIn.put(ingressClass('nginx'));
  standIn.put(node('node-a', '8', `${(32 * GiB) / 1024}Ki`));
  standIn.put(node('node-b', '4', '16Gi'));
  standIn.put(await tlsSecret(dir, 'bosun', 'bosun.example.com-tls', ['bosun.example.com']));
  standIn.put(await tlsSecret(dir, 'bosun', 'auth.bosun.example.com-tls', ['auth.bosun.example.com']));
  standIn.put(await tlsSecret(dir, 'bosun-sandboxes', 'wildcard-runtime-tls', ['*.example.com']));
  for (const secret of await filledSecrets([EXAMPLE, valuesFile])) standIn.put(secret);
  return { standIn, kubeconfig: await kubeconfigFile(standIn, dir) };
}

/** Every host resolves to a documentation address. */
export const resolvesAll: ResolveHost = async () => ['192.0.2.10'];

/** runPreflight over the chart's values with these files merged, as the command reads them. */
export async function preflight(
  files: string[],
  kubeconfig: string,
  resolve = resolvesAll,
  extra: Record<string, unknown> = {},
): Promise<CheckResult[]> {
  const dir = chartDir(undefined);
  const values = installValuesOf(mergeValues(chartValues(dir, files), extra));
  return runPreflight(
    { values, kubeVersion: chartKubeVersion(dir), namespace: 'bosun', kubeconfig },
    { resolve, timeoutMs: 3000 },
  );
}

/** The result of the check named `check`, else an error listing them. */
export function result(results: readonly CheckResult[], check: string): CheckResult {
  const found = results.find((candidate) => candidate.check === check);
  if (!found) throw new Error(`no check ${check} among ${results.map((r) => r.check).join('; ')}`);
  return found;
}

/** A cluster that passes every check (see `passingCluster`) for each test, its values with this machine's database. */
export interface PassingCluster {
  standIn: KubeStandIn;
  kubeconfig: string;
  /** The values file that points the external database at this machine's PostgreSQL. */
  local: string;
}

/** Declares the `beforeEach`/`afterEach` of a passing cluster in `scratch`; read its fields inside tests only. */
export function usePassingCluster(scratch: { dir: string }): PassingCluster {
  const cluster = {} as PassingCluster;
  beforeEach(async () => {
    cluster.local = await valuesFile(scratch.dir, 'local.yaml', LOCAL_DATABASE);
    Object.assign(cluster, await passingCluster(scratch.dir, cluster.local));
  });
  afterEach(() => cluster.standIn.close());
  return cluster;
}
