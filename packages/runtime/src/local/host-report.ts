import { createHash } from 'node:crypto';
import { chmod, mkdir, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { RuntimeHealth } from '../runtime.ts';
import type { Cgroups } from './cgroups.ts';
import type { ResourceLimits } from './cgroups.ts';
import type { HostTools } from './host-tools.ts';
import { type LocalSpec, scaled } from './launcher.ts';
import { seccompProgram } from './seccomp.ts';

/** Where sandboxes go when the root asked for is out of their user's reach (see `prepareRoot`). */
export const TRAVERSABLE_BASE = '/var/lib/bosun/sandboxes';
/** The file left in a root that was moved, saying where the sandboxes are. */
export const MOVED_NOTE = 'MOVED';

/**
 * The root is traversable by every sandbox's user (bwrap, running as that user, resolves the sandbox's
 * directories through it) but listable by no one else; so must its ancestors be, when sandboxes run as another
 * user than the runtime. When one is not (as root, a data directory under `/root` or `mktemp -d`, both 0700), the
 * sandboxes go to `<base>/<hash of the root asked for>` instead (the same one at every start), and `MOVED` in the
 * root asked for says where. Returns the root used and, if moved, why.
 */
export async function prepareRoot(root: string, base = TRAVERSABLE_BASE): Promise<{ root: string; moved?: string }> {
  await makeRoot(root);
  const blocked = await untraversableAncestor(root);
  if (blocked === undefined) return { root };
  const moved = join(base, createHash('sha256').update(root).digest('hex').slice(0, 16));
  await makeRoot(moved);
  const blockedToo = await untraversableAncestor(moved);
  if (blockedToo !== undefined) {
    const fix = `chmod o+x ${blocked}, or put the runtime root elsewhere`;
    throw new Error(
      `sandboxes run as another user, who cannot reach ${root} (${blocked} is not traversable) nor ${moved} ` +
        `(${blockedToo} is not): ${fix}`,
    );
  }
  const why = `${blocked} is not traversable by the sandboxes' user`;
  await writeFile(join(root, MOVED_NOTE), `The sandboxes of this runtime are in ${moved}: ${why}.\n`);
  return { root: moved, moved: why };
}

async function makeRoot(root: string): Promise<void> {
  await mkdir(root, { recursive: true, mode: 0o711 });
  await chmod(root, 0o711);
}

/** The nearest ancestor of `root` another user cannot pass through, when sandboxes run as another user. */
async function untraversableAncestor(root: string): Promise<string | undefined> {
  if (process.getuid?.() !== 0) return undefined;
  for (let dir = dirname(root); ; dir = dirname(dir)) {
    if (((await stat(dir)).mode & 0o001) === 0) return dir;
    if (dirname(dir) === dir) return undefined;
  }
}

const SECCOMP =
  'seccomp: new namespaces, mounts, keyrings, bpf, perf events, userfaultfd, io_uring, kernel modules, kexec, ' +
  'reboot, swap, accounting, quotas, file handles and I/O ports refused';

/**
 * What the backend enforces on this host, and what it cannot; `unsafe`: why sandboxes are not isolated at all
 * (bubblewrap missing, or isolation turned off), false when they are.
 */
export function describeHost(
  tools: HostTools,
  cgroups: Cgroups,
  unsafe: false | 'missing' | 'turned off',
): Omit<RuntimeHealth, 'running'> {
  if (unsafe) {
    const why = unsafe === 'missing' ? 'bubblewrap is not installed' : 'isolation is turned off (isolation: none)';
    return {
      backend: 'local',
      isolated: false,
      enforced: [],
      notEnforced: [`${why}: sandboxes are plain processes that see everything the runtime sees`],
    };
  }
  const notEnforced = [...cgroups.notEnforced];
  if (!tools.socat) notEnforced.push('network none/allow: socat is not installed (only `open` sandboxes start)');
  if (!tools.prlimit) notEnforced.push('rlimits: prlimit (util-linux) is not installed');
  const filtered = seccompProgram() !== undefined;
  if (!filtered) notEnforced.push(`seccomp: no filter for ${process.arch} (only x86-64's is written)`);
  if (process.getuid?.() !== 0 || !tools.nsenter) {
    notEnforced.push('network allow-list: ports below 1024 (only a root runtime with nsenter can open them)');
  }
  return {
    backend: 'local',
    isolated: true,
    enforced: [
      'bubblewrap: user, mount, pid, ipc, uts and (unless `open`) network namespaces; --die-with-parent, --new-session',
      'filesystem: allow-listed system paths and the Bosun installation read-only; only workspace, data, home writable',
      'environment: only an allow-list and its own',
      ...(filtered ? [SECCOMP] : []),
      ...cgroups.enforced.map((line) => `limit: ${line}`),
    ],
    notEnforced,
  };
}

/** What is enforced on one sandbox, a sentence each. */
export function isolationOf(spec: LocalSpec, limits: ResourceLimits, cgroups: Cgroups, unsafe: boolean): string[] {
  if (unsafe) return ['none: a plain child process (unsafeNoIsolation)'];
  const own = scaled(limits, spec.resourceFactor);
  const by = (controller: string) =>
    cgroups.enforced.find((line) => line.startsWith(controller))?.slice(controller.length + 1) ?? '(not enforced)';
  const network =
    spec.network.mode === 'allow'
      ? `allow ${spec.network.hosts.map(({ host, port }) => `${host}:${port}`).join(', ')}`
      : spec.network.mode;
  return [
    `namespaces: user, mount, pid, ipc, uts${spec.network.mode === 'open' ? '' : ', network'}`,
    `user: ${spec.uid}:${spec.gid}`,
    'filesystem: system read-only; only its workspace, data and home writable',
    `network: ${network}`,
    `memory: ${Math.round(own.memoryBytes / 2 ** 20)} MiB ${by('memory')}`,
    `cpu: ${own.cpus} ${by('cpu')}`,
    `processes: ${own.processes} ${by('pids')}`,
    ...(seccompProgram() ? [SECCOMP] : []),
  ];
}
