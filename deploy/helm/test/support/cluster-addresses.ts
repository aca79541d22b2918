import type { KubeObject } from './helm.ts';
import { type Container, podLabels } from './objects.ts';

/** A workload of the render run here as a process: the container that listens, and where it listens. */
export interface RunWorkload {
  workload: KubeObject;
  container: Container;
  /** `http://127.0.0.1:PORT` */
  url: string;
}

interface ServiceSpec {
  selector?: Record<string, string>;
  ports: { port: number; targetPort?: number | string }[];
}

/**
 * The cluster's DNS, for the Services of the render that select a workload run here: each name a pod may use
 * (`svc`, `svc.ns`, `svc.ns.svc`, `svc.ns.svc.cluster.local`) at the Service's port -> the process's loopback
 * `host:port`. The port must be the container's that the process listens on (its targetPort, by name or number),
 * so a Service pointing at another workload or port maps nothing, and its clients reach nothing, as in a cluster.
 */
export function serviceAddresses(
  objects: readonly KubeObject[],
  namespace: string,
  running: readonly RunWorkload[],
): Map<string, string> {
  const addresses = new Map<string, string>();
  for (const service of objects.filter((object) => object.kind === 'Service')) {
    const spec = service.spec as ServiceSpec;
    const selector = Object.entries(spec.selector ?? {});
    for (const { workload, container, url } of running) {
      const labels = podLabels(workload);
      if (selector.length === 0 || !selector.every(([key, value]) => labels[key] === value)) continue;
      const listening = new URL(url);
      for (const { port, targetPort = port } of spec.ports) {
        const target = container.ports?.find((candidate) =>
          typeof targetPort === 'number' ? candidate.containerPort === targetPort : candidate.name === targetPort,
        );
        if (!target || !container.args?.includes(String(target.containerPort))) continue;
        const name = service.metadata.name;
        const hosts = [
          name,
          `${name}.${namespace}`,
          `${name}.${namespace}.svc`,
          `${name}.${namespace}.svc.cluster.local`,
        ];
        for (const host of hosts) addresses.set(`${host}:${port}`, listening.host);
      }
    }
  }
  return addresses;
}

/** `value` with each `//host:port` the addresses name moved to its loopback address. */
export function withAddressesMoved(value: string, addresses: ReadonlyMap<string, string>): string {
  return value.replace(/\/\/([a-z0-9.-]+:[0-9]+)(?=[/?#]|$)/g, (whole, address: string) => {
    const to = addresses.get(address);
    return to ? `//${to}` : whole;
  });
}
