import type { V1IngressClass, V1StorageClass } from '@kubernetes/client-node';
import type { Cluster } from '../cluster.ts';
import type { InstallValues } from '../install-values.ts';
import { type CheckResult, fail, pass, warn } from './check.ts';
import { meetsKubeVersion } from './kube-version.ts';
import { quantity } from './quantity.ts';

/** Recommended capacity of each node: a few sandboxes (1Gi to 3Gi each) beside the app. */
export const RECOMMENDED_NODE = { memory: 8 * 2 ** 30, cpu: 4 };

export async function kubernetesVersion(cluster: Cluster, constraint: string | undefined): Promise<CheckResult> {
  const { gitVersion } = await cluster.version();
  const check = 'Kubernetes version';
  if (!constraint) return pass(check, `${gitVersion} (the chart names no kubeVersion)`);
  if (meetsKubeVersion(gitVersion, constraint)) return pass(check, `${gitVersion} meets the chart's ${constraint}`);
  return fail(
    check,
    `${gitVersion} does not meet the chart's kubeVersion ${constraint}`,
    `upgrade the cluster to a Kubernetes version ${constraint}`,
  );
}

const DEFAULT_STORAGE = 'storageclass.kubernetes.io/is-default-class';
const DEFAULT_INGRESS = 'ingressclass.kubernetes.io/is-default-class';

/** Each storage class the values name exists; where they name none, the cluster has a default one. */
export async function storageClasses(cluster: Cluster, values: InstallValues): Promise<CheckResult[]> {
  const uses: [string, string][] = [];
  if (values.runtimeApi.enabled) uses.push(['runtime-api.env.STORAGE_CLASS', values.runtimeApi.storageClass]);
  if (values.postgresql.enabled && values.postgresql.persistent) {
    uses.push(['postgresql.persistence.storageClass', values.postgresql.storageClass]);
  }
  if (values.seaweedfs.enabled && values.seaweedfs.persistent) {
    uses.push(['seaweedfs.persistence.storageClass', values.seaweedfs.storageClass]);
  }
  if (uses.length === 0) return [];
  const classes = await cluster.storageClasses();
  const names = classes.map((storage) => storage.metadata?.name ?? '');
  const results: CheckResult[] = [];
  for (const name of new Set(uses.map(([, name]) => name))) {
    const keys = uses
      .filter(([, used]) => used === name)
      .map(([key]) => key)
      .join(', ');
    if (name === '') results.push(defaultStorageClass(classes, names, keys));
    else if (names.includes(name)) results.push(pass(`storage class ${name}`, `exists (${keys})`));
    else {
      const known = names.length ? `one of: ${names.join(', ')}` : 'a class once the cluster has one';
      results.push(fail(`storage class ${name}`, `not found (${keys})`, `create it, or set ${keys} to ${known}`));
    }
  }
  return results;
}

function defaultStorageClass(classes: V1StorageClass[], names: string[], keys: string): CheckResult {
  const check = 'default storage class';
  const found = classes.find((storage) => storage.metadata?.annotations?.[DEFAULT_STORAGE] === 'true');
  if (found) return pass(check, `${found.metadata?.name} (used where ${keys} is empty)`);
  const fix = names.length
    ? `mark one default (kubectl annotate storageclass ${names[0]} ${DEFAULT_STORAGE}=true) or set ${keys} to one of: ${names.join(', ')}`
    : 'install a storage provisioner with a default StorageClass';
  return fail(check, `none, and ${keys} is empty`, fix);
}

/** The ingress controller the chart's and the sandboxes' Ingresses need: the class named, else a default one. */
export async function ingressClass(cluster: Cluster, values: InstallValues): Promise<CheckResult[]> {
  if (!values.ingress.enabled && !values.runtimeApi.enabled) return [];
  const classes = await cluster.ingressClasses();
  const names = classes.map((ingress) => ingress.metadata?.name ?? '');
  const wanted = values.ingress.className;
  if (wanted) {
    if (names.includes(wanted))
      return [pass(`ingress class ${wanted}`, `exists (controller ${controllerOf(classes, wanted)})`)];
    const fix = names.length
      ? `set ingress.class to one of: ${names.join(', ')}`
      : 'install an ingress controller (e.g. ingress-nginx)';
    return [fail(`ingress class ${wanted}`, 'not found (ingress.class)', fix)];
  }
  const found = classes.find((ingress) => ingress.metadata?.annotations?.[DEFAULT_INGRESS] === 'true');
  if (found) return [pass('default ingress class', `${found.metadata?.name} (ingress.class is empty)`)];
  if (names.length === 0)
    return [
      fail(
        'ingress controller',
        'no IngressClass in the cluster',
        'install an ingress controller (e.g. ingress-nginx)',
      ),
    ];
  return [
    fail(
      'default ingress class',
      `none among ${names.join(', ')}, and ingress.class is empty`,
      `set ingress.class to one of: ${names.join(', ')}, or mark one default (${DEFAULT_INGRESS}=true)`,
    ),
  ];
}

function controllerOf(classes: V1IngressClass[], name: string): string {
  return classes.find((ingress) => ingress.metadata?.name === name)?.spec?.controller ?? 'unnamed';
}

/** Every node has the recommended memory and CPU (a warning names those below); no node at all fails. */
export async function nodeSizes(cluster: Cluster): Promise<CheckResult> {
  const nodes = await cluster.nodes();
  const check = 'node sizes';
  if (nodes.length === 0) return fail(check, 'the cluster has no node', 'add nodes: pods cannot be scheduled');
  const small = nodes.flatMap((node) => {
    const memory = quantity(node.status?.capacity?.memory) ?? 0;
    const cpu = quantity(node.status?.capacity?.cpu) ?? 0;
    const below = [
      ...(memory < RECOMMENDED_NODE.memory ? [`memory ${node.status?.capacity?.memory ?? 'unknown'}`] : []),
      ...(cpu < RECOMMENDED_NODE.cpu ? [`cpu ${node.status?.capacity?.cpu ?? 'unknown'}`] : []),
    ];
    return below.length ? [`${node.metadata?.name} (${below.join(', ')})`] : [];
  });
  const recommended = `${RECOMMENDED_NODE.memory / 2 ** 30}Gi memory and ${RECOMMENDED_NODE.cpu} CPUs`;
  if (small.length === 0)
    return pass(check, `${nodes.length} node${nodes.length === 1 ? '' : 's'}, each with at least ${recommended}`);
  return warn(
    check,
    `below the recommended ${recommended}: ${small.join('; ')}`,
    'use larger nodes: each sandbox asks for 1Gi (up to 3Gi) of memory',
  );
}
