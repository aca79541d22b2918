import { isIPv4 } from 'node:net';
import { posix } from 'node:path';
import { SandboxSpecError } from '../errors.ts';
import type { NetworkPolicy, ResourceFactor, SandboxStartSpec } from '../runtime.ts';
import { checkStartSpec, sharedSpecOf } from '../spec.ts';
import type { KubernetesRuntimeConfig } from './kubernetes-config.ts';

/** Where the pod keeps what is not its workspace: the agent server's data (on the volume), its home and /tmp. */
export const POD_PATHS = { data: '/var/lib/bosun', home: '/home/sandbox', tmp: '/tmp' } as const;

/** A start spec with the backend's defaults: what the sandbox's root keeps (all but `environment`). */
export interface KubeSpec {
  sessionId: string;
  image: string;
  command: string[];
  workingDir: string;
  environment: Record<string, string>;
  resourceFactor: ResourceFactor;
  runAsUser: number;
  runAsGroup: number;
  network: NetworkPolicy;
}

/** A start spec the Kubernetes backend can run, or a SandboxSpecError naming the field. */
export function kubeSpecOf(request: SandboxStartSpec, config: KubernetesRuntimeConfig): KubeSpec {
  checkStartSpec(request);
  const workingDir = posix.normalize(request.workingDir ?? '/workspace');
  if (!posix.isAbsolute(workingDir) || workingDir === '/') {
    throw new SandboxSpecError('working_dir: an absolute path other than /');
  }
  const clash = Object.values(POD_PATHS).find(
    (path) => workingDir === path || workingDir.startsWith(`${path}/`) || path.startsWith(`${workingDir}/`),
  );
  if (clash) throw new SandboxSpecError(`working_dir: must not be or contain ${clash}`);
  const runAsUser = request.runAsUser ?? config.run_as_user;
  const runAsGroup = request.runAsGroup ?? config.run_as_group;
  if (runAsUser === 0 || runAsGroup === 0) {
    throw new SandboxSpecError('run_as_user: the Kubernetes backend never runs a sandbox as root (user or group 0)');
  }
  const network = request.network ?? { mode: 'none' };
  if (network.mode === 'allow') {
    const named = network.hosts.find(({ host }) => !isIPv4(host));
    if (named) {
      throw new SandboxSpecError(
        `network.hosts: ${named.host}: a NetworkPolicy allows addresses, not names: give its IPv4 address, or add it to the runtime's egress setting`,
      );
    }
  }
  return {
    ...sharedSpecOf(request, config.command),
    image: request.image ?? config.image,
    workingDir,
    runAsUser,
    runAsGroup,
    network,
  };
}
