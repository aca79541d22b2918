import { Cluster, ClusterError } from '../cluster.ts';
import type { InstallValues } from '../install-values.ts';
import { type CheckResult, fail, warn } from './check.ts';
import { ingressClass, kubernetesVersion, nodeSizes, storageClasses } from './cluster-checks.ts';
import { databaseCheck } from './database-check.ts';
import { type ResolveHost, dnsChecks, systemResolver } from './dns-checks.ts';
import { secretChecks } from './secret-checks.ts';
import { tlsChecks } from './tls-checks.ts';

export interface PreflightInput {
  values: InstallValues;
  /** The chart's kubeVersion constraint. */
  kubeVersion: string | undefined;
  namespace: string;
  kubeconfig: string | undefined;
}

export interface PreflightSeams {
  /** How host names are resolved (the system's resolver unless a test gives its own). */
  resolve?: ResolveHost;
  /** How long one DNS look-up or TCP connection may take. */
  timeoutMs?: number;
}

/** Every check, in the order they print: the cluster's, then DNS, TLS, the secrets, the database. */
export async function runPreflight(input: PreflightInput, seams: PreflightSeams = {}): Promise<CheckResult[]> {
  const { values } = input;
  const timeoutMs = seams.timeoutMs ?? 5000;
  const outside = Promise.all([
    dnsChecks(values, seams.resolve ?? systemResolver, timeoutMs),
    databaseCheck(values, timeoutMs),
  ]);
  const inside = await clusterChecks(input);
  const [dns, database] = await outside;
  const [general, tlsAndSecrets] = inside;
  return [...general, ...dns, ...tlsAndSecrets, ...database];
}

async function clusterChecks(input: PreflightInput): Promise<[CheckResult[], CheckResult[]]> {
  const { values, kubeVersion, namespace, kubeconfig } = input;
  let cluster: Cluster;
  try {
    cluster = await Cluster.connect(kubeconfig);
  } catch (error) {
    return [[fail('Kubernetes API', (error as Error).message, 'give the cluster with --kubeconfig FILE')], []];
  }
  // A check that can only warn warns when it cannot look either (listing nodes is often not allowed).
  const guarded = async (check: string, work: () => Promise<CheckResult | CheckResult[]>, atWorst = fail) => {
    try {
      return [await work()].flat();
    } catch (error) {
      return [atWorst(check, (error as Error).message, fixOf(error, cluster))];
    }
  };
  let version: CheckResult;
  try {
    version = await kubernetesVersion(cluster, kubeVersion);
  } catch (error) {
    version = fail('Kubernetes version', (error as Error).message, fixOf(error, cluster));
    // Nothing else of the cluster can be asked: one failure says so.
    if (error instanceof ClusterError && error.code === 0) return [[version], []];
  }
  const general = await Promise.all([
    guarded('storage classes', () => storageClasses(cluster, values)),
    guarded('ingress controller', () => ingressClass(cluster, values)),
    guarded('node sizes', () => nodeSizes(cluster), warn),
  ]);
  const specific = await Promise.all([
    guarded('TLS certificates', () => tlsChecks(cluster, values, namespace)),
    guarded('secrets', () => secretChecks(cluster, values, namespace)),
  ]);
  return [[version, ...general.flat()], specific.flat()];
}

function fixOf(error: unknown, cluster: Cluster): string {
  if (!(error instanceof ClusterError)) return 'report this as a bug of bosun preflight';
  if (error.code === 0)
    return `check that the cluster at ${cluster.server} runs and that this machine reaches it (--kubeconfig)`;
  if (error.code === 401 || error.code === 403) return "give the kubeconfig's credentials read access to it";
  return 'see the message of the Kubernetes API';
}
