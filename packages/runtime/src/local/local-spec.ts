import { SandboxSpecError } from '../errors.ts';
import type { NetworkPolicy, ResourceFactor, SandboxStartSpec } from '../runtime.ts';
import { sharedSpecOf } from '../spec.ts';
import { workingDirProblem } from './bwrap-args.ts';
import type { LocalSpec } from './launcher.ts';
import { AGENT_PORT } from './layout.ts';

export interface LocalDefaults {
  command: readonly string[];
  network: NetworkPolicy;
  /** Who sandboxes run as when the runtime runs as root and a spec names no one. */
  user: number;
  /** Whether allow-listed ports below 1024 can be opened in a sandbox's namespace (root, with nsenter). */
  lowPorts: boolean;
}

/** A start spec with the local backend's defaults, or a SandboxSpecError for what it cannot run. */
export function localSpecOf(request: SandboxStartSpec, defaults: LocalDefaults): LocalSpec {
  const workingDir = request.workingDir ?? '/workspace';
  const problem = workingDirProblem(workingDir);
  if (problem) throw new SandboxSpecError(`working_dir: ${problem}`);
  const network = request.network ?? defaults.network;
  if (network.mode === 'allow') checkAllowList(network.hosts, defaults.lowPorts);
  const root = process.getuid?.() === 0;
  const uid = request.runAsUser ?? (root ? defaults.user : (process.getuid?.() ?? 0));
  const gid = request.runAsGroup ?? (root ? uid : (process.getgid?.() ?? 0));
  if (root && (uid === 0 || gid === 0)) {
    // Root in a sandbox is root on the host's files it can reach, and may undo its own read-only mounts.
    throw new SandboxSpecError('run_as_user: the local backend never runs a sandbox as root (user or group 0)');
  }
  if (!root && (uid !== process.getuid?.() || gid !== process.getgid?.())) {
    throw new SandboxSpecError('run_as_user: the runtime is not root, so sandboxes run as its own user');
  }
  const commandIsDefault = request.command === undefined ? { commandIsDefault: true } : {};
  return { ...sharedSpecOf(request, defaults.command), ...commandIsDefault, workingDir, uid, gid, network };
}

/** The start request a local spec answers (every default as given): what a resume's refresh is applied to. */
export function requestOf({
  uid,
  gid,
  resourceFactor,
  commandIsDefault,
  command,
  ...spec
}: LocalSpec): SandboxStartSpec {
  return {
    ...spec,
    ...(commandIsDefault ? {} : { command }),
    resourceFactor: resourceFactor as ResourceFactor,
    runAsUser: uid,
    runAsGroup: gid,
  };
}

function checkAllowList(hosts: readonly { host: string; port: number }[], lowPorts: boolean): void {
  const low = hosts.find(({ port }) => port < 1024);
  // The sandbox's bridge listens as its unprivileged user; only a root runtime can let it below 1024.
  if (low && !lowPorts) {
    throw new SandboxSpecError(`network.hosts: port ${low.port}: below 1024 only when the runtime runs as root`);
  }
  const loopback = (host: string) => host === '127.0.0.1' || host === 'localhost';
  if (hosts.some(({ host, port }) => port === AGENT_PORT && loopback(host))) {
    throw new SandboxSpecError(`network.hosts: 127.0.0.1:${AGENT_PORT} is the sandbox's own agent server`);
  }
}
