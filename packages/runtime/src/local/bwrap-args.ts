import { lstatSync, readlinkSync } from 'node:fs';
import { isAbsolute, normalize, sep } from 'node:path';
import type { NetworkPolicy } from '../runtime.ts';
import {
  AGENT_PORT,
  AGENT_SOCKET,
  EGRESS_DIR,
  EGRESS_READY,
  SANDBOX_DATA_DIR,
  SANDBOX_HOME,
  SANDBOX_RUN_DIR,
  type SandboxLayout,
} from './layout.ts';

/** The system a sandbox sees, read-only: programs and libraries, nothing with the host's data or configuration. */
const SYSTEM_PATHS = ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32'];
/** What of /etc programs need (loader, TLS roots, time zone, `alternatives` symlinks, fonts), and nothing else. */
const ETC_PATHS = [
  '/etc/alternatives',
  '/etc/ssl',
  '/etc/ca-certificates',
  '/etc/ca-certificates.conf',
  '/etc/ld.so.cache',
  '/etc/ld.so.conf',
  '/etc/ld.so.conf.d',
  '/etc/localtime',
  '/etc/timezone',
  '/etc/nsswitch.conf',
  '/etc/os-release',
  '/etc/debian_version',
  '/etc/protocols',
  '/etc/services',
  '/etc/mime.types',
  '/etc/terminfo',
  '/etc/profile',
  '/etc/bash.bashrc',
  '/etc/inputrc',
  // The browser tools' Chromium: Debian's launcher reads its settings, and pages need fonts.
  '/etc/chromium.d',
  '/etc/chromium',
  '/etc/fonts',
];
/** Only a sandbox on the host's network resolves names itself; one with an allow-list gets its hosts file. */
const ETC_NETWORK_PATHS = ['/etc/resolv.conf', '/etc/host.conf', '/etc/gai.conf'];
/** Paths a workspace may not be mounted over. */
const RESERVED = [
  '/proc',
  '/sys',
  '/dev',
  '/usr',
  '/etc',
  '/bin',
  '/lib',
  SANDBOX_RUN_DIR,
  SANDBOX_DATA_DIR,
  SANDBOX_HOME,
];

/** An allow-listed host as the sandbox reaches it: `address:port` inside, forwarded through `socket`. */
export interface EgressRoute {
  host: string;
  port: number;
  /** The loopback address the sandbox's hosts file gives `host`. */
  address: string;
  /** The socket's file name in the sandbox's egress directory. */
  socket: string;
}

export interface BwrapPlan {
  layout: SandboxLayout;
  workingDir: string;
  /** The Bosun installation and the Node binary: visible read-only at their own paths. */
  readOnlyPaths: readonly string[];
  /** Paths inside those that the sandbox must not see (the app's data directory, the runtime's root). */
  hiddenPaths: readonly string[];
  network: NetworkPolicy;
  egress: readonly EgressRoute[];
  /** The file descriptor bwrap writes its JSON info (the sandbox's first pid) to. */
  infoFd: number;
  /** The file descriptor bwrap reads the sandbox's seccomp filter from (none: no filter). */
  seccompFd?: number;
  socat: string;
  /** The command the sandbox runs, with its arguments. */
  command: readonly string[];
}

/** A workspace path the sandbox can have, or why not. */
export function workingDirProblem(path: string): string | undefined {
  if (!isAbsolute(path)) return 'must be an absolute path';
  const normal = normalize(path);
  if (normal === '/') return 'must not be /';
  const clash = RESERVED.find((reserved) => within(normal, reserved) || within(reserved, normal));
  return clash === undefined ? undefined : `must not be or contain ${clash}`;
}

/** bwrap's arguments: every namespace of its own (the network too unless `open`), an allow-list of mounts. */
export function bwrapArgs(plan: BwrapPlan): string[] {
  const ownNetwork = plan.network.mode !== 'open';
  const args = [
    '--unshare-user',
    '--unshare-pid',
    '--unshare-ipc',
    '--unshare-uts',
    '--unshare-cgroup-try',
    ...(ownNetwork ? ['--unshare-net'] : []),
    '--cap-drop',
    'ALL',
    '--die-with-parent',
    '--new-session',
    '--hostname',
    'sandbox',
    '--info-fd',
    String(plan.infoFd),
  ];
  for (const path of SYSTEM_PATHS) args.push(...mirror(path));
  const etc = plan.network.mode === 'open' ? [...ETC_PATHS, ...ETC_NETWORK_PATHS] : ETC_PATHS;
  for (const path of etc) args.push('--ro-bind-try', path, path);
  for (const file of ['passwd', 'group', 'hosts', 'hostname']) {
    args.push('--ro-bind', `${plan.layout.etc}/${file}`, `/etc/${file}`);
  }
  args.push('--proc', '/proc', '--dev', '/dev', '--tmpfs', '/tmp', '--tmpfs', '/var/tmp', '--tmpfs', '/run');
  args.push('--dir', SANDBOX_RUN_DIR);
  const readOnly = outermost(plan.readOnlyPaths.filter((path) => !underAny(path, SYSTEM_PATHS)));
  for (const path of readOnly) args.push('--ro-bind', path, path);
  const visible = [...SYSTEM_PATHS, ...etc, ...readOnly];
  for (const path of plan.hiddenPaths.filter((path) => underAny(path, visible) && exists(path))) {
    // An empty, read-only directory in its place (or /dev/null for a file).
    args.push(
      ...(lstatSync(path).isDirectory() ? ['--tmpfs', path, '--remount-ro', path] : ['--ro-bind', '/dev/null', path]),
    );
  }
  args.push('--bind', plan.layout.workspace, plan.workingDir);
  args.push('--bind', plan.layout.data, SANDBOX_DATA_DIR);
  args.push('--bind', plan.layout.home, SANDBOX_HOME);
  if (plan.egress.length > 0) args.push('--ro-bind', plan.layout.egress, EGRESS_DIR);
  // The root itself is bwrap's tmpfs: read-only too, so that only the mounts made writable above are.
  args.push('--remount-ro', '/', '--chdir', plan.workingDir);
  if (plan.seccompFd !== undefined) args.push('--seccomp', String(plan.seccompFd));
  args.push('--');
  if (!ownNetwork) return [...args, ...plan.command];
  return [...args, '/bin/sh', '-c', bridgeScript(plan), 'sandbox-init', ...plan.command];
}

/**
 * The sandbox's first process when it has a network of its own: socat bridges its agent server's port to a Unix
 * socket the runtime connects to from outside, and listens for each allow-listed host on the address its hosts
 * file gives it, forwarding to the runtime's socket for it. Then it becomes the command.
 */
function bridgeScript(plan: BwrapPlan): string {
  const lines = [
    `${plan.socat} UNIX-LISTEN:${AGENT_SOCKET},fork,mode=600 TCP:127.0.0.1:${AGENT_PORT} &`,
    // The runtime says when the namespace is ready for them (ports below 1024 opened to its user).
    ...(plan.egress.length > 0 ? [`while [ ! -e ${EGRESS_DIR}/${EGRESS_READY} ]; do sleep 0.005; done`] : []),
    ...plan.egress.map(
      (route) =>
        `${plan.socat} TCP-LISTEN:${route.port},bind=${route.address},fork,reuseaddr ` +
        `UNIX-CONNECT:${EGRESS_DIR}/${route.socket} &`,
    ),
    // The runtime connects once the agent server says it listens: the socket must be there by then.
    `while [ ! -S ${AGENT_SOCKET} ]; do sleep 0.005; done`,
    'exec "$@"',
  ];
  return lines.join('\n');
}

/** A top-level system path as the host has it: a symlink stays a symlink (merged /usr), a directory is bound. */
function mirror(path: string): string[] {
  if (!exists(path)) return [];
  if (lstatSync(path).isSymbolicLink()) return ['--symlink', readlinkSync(path), path];
  return ['--ro-bind', path, path];
}

function exists(path: string): boolean {
  return lstatSync(path, { throwIfNoEntry: false }) !== undefined;
}

function within(path: string, dir: string): boolean {
  return path === dir || path.startsWith(dir.endsWith(sep) ? dir : dir + sep);
}

function underAny(path: string, dirs: readonly string[]): boolean {
  return dirs.some((dir) => within(path, dir));
}

/** Without the paths inside another one of the list (bound once, with the outer one). */
function outermost(paths: readonly string[]): string[] {
  const unique = [...new Set(paths.map((path) => normalize(path)))];
  return unique.filter((path) => !unique.some((other) => other !== path && within(path, other)));
}
