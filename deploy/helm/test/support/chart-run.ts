import { chown, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { until } from '../../../../packages/app-server/test/support/until.ts';
import type { KubeStandIn } from '../../../../packages/runtime/test/kubernetes/support/kube-stand-in.ts';
import { type RunWorkload, serviceAddresses, withAddressesMoved } from './cluster-addresses.ts';
import { type KubeObject, find } from './helm.ts';
import { type Container, type PodSpec, podSpec } from './objects.ts';
import {
  type ClusterData,
  type ContainerRun,
  type ServerProcess,
  environmentOf,
  killContainers,
  loopbackArgs,
  mountVolumes,
  podUserOf,
  runToExit,
  startServer,
  withMountsMoved,
} from './pod-process.ts';

export interface ChartRunOptions {
  /** The rendered chart. */
  objects: readonly KubeObject[];
  /** Its release namespace. */
  namespace: string;
  /** The Secrets of the release namespace, made before the install: name -> key -> text. */
  secrets: ReadonlyMap<string, Record<string, string>>;
  /** The cluster the runtime API's service account reaches. */
  standIn: KubeStandIn;
  /** Where the pods' volumes and homes are made. */
  dir: string;
}

/** The chart's Bosun containers, run as processes. */
export interface ChartRun {
  /** The servers started, by container name. */
  servers: ReadonlyMap<string, ServerProcess>;
  /**
   * Runs container `name` of Deployment `workload` to its exit: its own args (an init container), or `args`
   * instead, as `kubectl exec` runs a command in it.
   */
  container(workload: string, name: string, args?: string[]): ReturnType<typeof runToExit>;
  /** Starts server container `name` of Deployment `workload`; resolves once its readiness probe answers 200. */
  server(workload: string, name: string): Promise<ServerProcess>;
  /** What every process run so far wrote (standard output and error), one text each. */
  outputs(): string[];
  /** Stops the servers, the last started first (SIGTERM, as Kubernetes stops a container). */
  stop(): Promise<void>;
}

/**
 * What a pod gives a container is taken from the render as it is: args, environment (`valueFrom` and `$(VAR)` as the
 * kubelet resolves them), mounted files, the user it runs as (when the tests run as root: the pod's securityContext,
 * with its home and working directory read-only under readOnlyRootFilesystem). The only translations from pod to
 * process are these:
 * - a mounted volume is a directory holding its files, and a path under its mount path in the environment names
 *   that directory (a volume at /tmp is TMPDIR);
 * - a listening address is a loopback port (`--host` 127.0.0.1, `--port` 0: a free one), and the in-cluster names
 *   of the Services selecting a running workload (`http://svc.ns.svc.cluster.local:port`) name that port;
 * - a pod with a service account token reaches the cluster through a kubeconfig naming the stand-in (KUBECONFIG),
 *   and sandbox URLs, which the cluster's DNS would send to the ingress controller, are checked at the stand-in's
 *   (`probe_address` added to the runtime API's BOSUN_KUBERNETES).
 */
export async function chartRun(options: ChartRunOptions): Promise<ChartRun> {
  const { objects, namespace, standIn, dir } = options;
  await mkdir(dir, { recursive: true });
  const kubeconfig = join(dir, 'kubeconfig');
  await writeFile(kubeconfig, standIn.kubeConfig().exportConfig(), { mode: 0o600 });
  const data: ClusterData = {
    secrets: withRenderedSecrets(objects, options.secrets),
    configMaps: configMaps(objects),
  };
  const running: RunWorkload[] = [];
  const servers = new Map<string, ServerProcess>();
  const outputs: (() => string)[] = [];

  const prepare = async (workload: string, name: string, args?: string[]) => {
    const object = find(objects, 'Deployment', workload);
    const pod = podSpec(object) as PodSpec;
    const container = [...(pod.initContainers ?? []), ...pod.containers].find((c) => c.name === name);
    if (!container) throw new Error(`Deployment ${workload} has no container ${name}`);
    if (container.command) throw new Error(`${name} has a command of its own: not the image's bosun`);
    const podDir = join(dir, workload);
    const mounts = await mountVolumes(pod, container, data, podDir);
    const addresses = serviceAddresses(objects, namespace, running);
    const env: Record<string, string> = Object.fromEntries(
      Object.entries(withMountsMoved(environmentOf(container, data), mounts)).map(([key, value]) => [
        key,
        withAddressesMoved(value, addresses),
      ]),
    );
    if (env.BOSUN_KUBERNETES) {
      env.BOSUN_KUBERNETES = JSON.stringify({
        ...JSON.parse(env.BOSUN_KUBERNETES),
        probe_address: standIn.ingressAddress,
      });
    }
    if (pod.automountServiceAccountToken !== false) env.KUBECONFIG = kubeconfig;
    const user = podUserOf(pod, container);
    if (user && env.KUBECONFIG) await chown(kubeconfig, user.uid, user.gid);
    // The image's home: the pod's user may write there only without a read-only root file system.
    const home = join(podDir, 'home');
    await mkdir(home, { recursive: true });
    if (user && !container.securityContext?.readOnlyRootFilesystem) await chown(home, user.uid, user.gid);
    const run: ContainerRun = { args: args ?? loopbackArgs(container), env, home, user };
    return { object, container, run };
  };

  return {
    servers,
    async container(workload, name, args) {
      const exited = await runToExit((await prepare(workload, name, args)).run);
      outputs.push(() => exited.output);
      return exited;
    },
    async server(workload, name) {
      const { object, container, run } = await prepare(workload, name);
      const server = await startServer(run);
      servers.set(name, server);
      outputs.push(server.output);
      await until(
        () => readiness(server, container),
        (status) => status === 200,
        `${workload}/${name} ready (its readiness probe)`,
        120_000,
      ).catch((error: Error) => {
        throw new Error(`${error.message}; it said:\n${server.output()}`);
      });
      running.push({ workload: object, container, url: server.url });
      return server;
    },
    outputs: () => outputs.map((output) => output()),
    async stop() {
      for (const server of [...servers.values()].reverse()) await server.stop();
      killContainers();
    },
  };
}

async function readiness(server: ServerProcess, container: Container): Promise<number> {
  const path = container.readinessProbe?.httpGet?.path;
  if (!path) throw new Error(`${container.name} has no readiness probe`);
  try {
    return (await fetch(`${server.url}${path}`)).status;
  } catch {
    return 0;
  }
}

/** The Secrets made before the install, and those the chart renders itself (its `data` base64, or `stringData`). */
function withRenderedSecrets(
  objects: readonly KubeObject[],
  made: ReadonlyMap<string, Record<string, string>>,
): Map<string, Record<string, string>> {
  const all = new Map(made);
  for (const object of objects.filter((candidate) => candidate.kind === 'Secret')) {
    const encoded = (object.data ?? {}) as Record<string, string>;
    const decoded = Object.entries(encoded).map(([key, value]) => [key, Buffer.from(value, 'base64').toString()]);
    all.set(object.metadata.name, {
      ...Object.fromEntries(decoded),
      ...((object.stringData ?? {}) as Record<string, string>),
    });
  }
  return all;
}

function configMaps(objects: readonly KubeObject[]): Map<string, Record<string, string>> {
  const maps = objects.filter((object) => object.kind === 'ConfigMap');
  return new Map(maps.map((object) => [object.metadata.name, (object.data ?? {}) as Record<string, string>]));
}
