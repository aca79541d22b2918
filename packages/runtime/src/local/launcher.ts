import { execFile } from 'node:child_process';
import { chown, mkdir, open, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import type { NetworkPolicy } from '../runtime.ts';
import { EgressForwards } from './bridges.ts';
import { type EgressRoute, bwrapArgs } from './bwrap-args.ts';
import { Cgroups, type ResourceLimits, type SandboxCgroups } from './cgroups.ts';
import { shareCompileCache } from './compile-cache.ts';
import type { HostTools } from './host-tools.ts';
import {
  AGENT_PORT,
  AGENT_SOCKET,
  EGRESS_READY,
  SANDBOX_DATA_DIR,
  SANDBOX_HOME,
  type SandboxLayout,
} from './layout.ts';
import { EndedEarly, type Ending, SandboxProcess } from './sandbox-process.ts';
import { seccompProgram } from './seccomp.ts';

/** A start spec as the local backend runs it: every default applied. */
export interface LocalSpec {
  sessionId: string;
  command: string[];
  /**
   * No command was asked for: the sandbox runs its runtime's own (`command` is that of the runtime that started it).
   * A later runtime, started again, runs its own instead: the one recorded may be gone (a bundle of a process that is
   * no more).
   */
  commandIsDefault?: boolean;
  workingDir: string;
  environment: Record<string, string>;
  resourceFactor: number;
  uid: number;
  gid: number;
  network: NetworkPolicy;
}

export interface LauncherOptions {
  tools: HostTools;
  cgroups: Cgroups;
  /** Plain child processes, without bubblewrap: nothing is isolated. */
  unsafe: boolean;
  readOnlyPaths: readonly string[];
  hiddenPaths: readonly string[];
  /** For a resource factor of 1. */
  limits: ResourceLimits;
  startTimeoutMs: number;
}

/** A sandbox's process and what the runtime holds for it while it runs. */
export interface Launched {
  process: SandboxProcess;
  cgroups: SandboxCgroups | undefined;
  egress: EgressForwards | undefined;
}

/** Why a sandbox did not start, for a person (no secret). */
export class LaunchError extends Error {}

/** The environment every sandbox gets besides its own: nothing of the runtime's (no setting, no credential). */
const PASSED_THROUGH = ['LANG', 'LC_ALL', 'TZ', 'TERM'];

/** Prepares a sandbox's directories (the first time) and files for its user. */
export async function prepare(layout: SandboxLayout, spec: LocalSpec, routes: readonly EgressRoute[]): Promise<void> {
  await mkdir(dirname(layout.dir), { recursive: true, mode: 0o711 });
  // Traversable by the sandbox's user (bwrap resolves its mounts as that user), listable by no one else.
  await mkdir(layout.dir, { recursive: true, mode: 0o711 });
  for (const dir of [layout.workspace, layout.data, layout.home]) {
    await mkdir(dir, { recursive: true, mode: 0o700 });
    if (process.getuid?.() === 0) await chown(dir, spec.uid, spec.gid);
  }
  await mkdir(layout.etc, { recursive: true, mode: 0o755 });
  await mkdir(layout.egress, { recursive: true, mode: 0o755 });
  await rm(join(layout.egress, EGRESS_READY), { force: true });
  const named = new Map(routes.filter((route) => route.address !== '127.0.0.1').map((r) => [r.host, r.address]));
  const hosts = [
    '127.0.0.1 localhost sandbox',
    '::1 localhost',
    ...[...named].map(([host, address]) => `${address} ${host}`),
  ];
  const files = {
    passwd: `root:x:0:0:root:/root:/bin/sh\nsandbox:x:${spec.uid}:${spec.gid}:sandbox:${SANDBOX_HOME}:/bin/sh\n`,
    group: `root:x:0:\nsandbox:x:${spec.gid}:\n`,
    hosts: `${hosts.join('\n')}\n`,
    hostname: 'sandbox\n',
  };
  for (const [name, text] of Object.entries(files)) await writeFile(`${layout.etc}/${name}`, text, { mode: 0o644 });
}

/** Each allow-listed host on a loopback address of its own (127.0.1.1, 127.0.1.2, ...), one per name. */
export function egressRoutes(network: NetworkPolicy): EgressRoute[] {
  if (network.mode !== 'allow') return [];
  const addresses = new Map<string, string>();
  const addressOf = (host: string) => {
    if (host === '127.0.0.1' || host === 'localhost') return '127.0.0.1';
    const index = addresses.size;
    if (!addresses.has(host)) addresses.set(host, `127.0.${1 + Math.floor(index / 254)}.${1 + (index % 254)}`);
    return addresses.get(host) as string;
  };
  return network.hosts.map(({ host, port }, index) => ({
    host,
    port,
    address: addressOf(host),
    socket: `${index}.sock`,
  }));
}

/** Starts the sandbox's agent server with `key`; resolves once it answers, else rejects with a LaunchError. */
export async function launch(
  options: LauncherOptions,
  id: string,
  layout: SandboxLayout,
  spec: LocalSpec,
  key: string,
): Promise<Launched> {
  const limits = scaled(options.limits, spec.resourceFactor);
  const routes = egressRoutes(spec.network);
  await prepare(layout, spec, routes);
  await shareCompileCache(spec.command, spec.uid);
  // Until its agent server is ready (nothing of the user's runs yet), twice its CPUs: Node's start compiles and
  // collects on threads of their own, and at its share alone a start took ~100 ms longer.
  const starting = { ...limits, cpus: limits.cpus * STARTING_CPU_FACTOR };
  const cgroups =
    options.unsafe || !options.cgroups.any ? undefined : await options.cgroups.create(Cgroups.nameFor(id), starting);
  let egress: EgressForwards | undefined;
  const seccomp = options.unsafe ? undefined : await seccompFile(layout);
  try {
    egress = routes.length > 0 ? await EgressForwards.open(layout.egress, routes) : undefined;
    const sandbox = await SandboxProcess.start({
      argv: options.unsafe
        ? unsafeArgv(options, layout, spec)
        : isolatedArgv(options, layout, spec, routes, limits, cgroups, seccomp !== undefined),
      env: environment(spec, key, options.unsafe ? layout : undefined),
      cwd: options.unsafe ? layout.workspace : layout.dir,
      logFile: layout.log,
      sessionKey: key,
      startTimeoutMs: options.startTimeoutMs,
      ...(options.unsafe ? {} : { infoFd: 3 }),
      ...(seccomp ? { passFds: { [SECCOMP_FD]: seccomp.fd } } : {}),
      ...(options.unsafe || spec.network.mode === 'open' ? {} : { agentSocket: AGENT_SOCKET }),
      ...(routes.length > 0 ? { onFirstPid: (pid: number) => openEgress(options.tools, pid, layout, routes) } : {}),
    });
    await cgroups?.limitCpu(limits.cpus).catch(async (error) => {
      await sandbox.stop(0);
      throw error;
    });
    return { process: sandbox, cgroups, egress };
  } catch (error) {
    await egress?.close();
    const detail =
      error instanceof EndedEarly
        ? `its agent server ${await describeEnding(error.ending, cgroups, limits)}`
        : (error as Error).message;
    await cgroups?.remove().catch(() => {});
    throw new LaunchError(detail);
  } finally {
    // The child has its own copy from the moment it was spawned.
    await seccomp?.close();
  }
}

/** How many times its CPU limit a sandbox may use while its agent server starts. */
const STARTING_CPU_FACTOR = 2;

/** Where bwrap reads the seccomp filter from, in the sandbox's chain of processes. */
const SECCOMP_FD = 4;

/** The filter in a file of the runtime's, opened for bwrap to read (none where there is no filter). */
async function seccompFile(layout: SandboxLayout) {
  const program = seccompProgram();
  if (!program) return undefined;
  const path = join(layout.dir, 'seccomp.bpf');
  await writeFile(path, program, { mode: 0o600 });
  return open(path, 'r');
}

/**
 * Lets the sandbox's bridges listen for its allowed hosts: when a port is below 1024, the sandbox's user may first
 * listen there in its own network namespace (a setting of that namespace only, made by the runtime as root).
 */
async function openEgress(tools: HostTools, pid: number, layout: SandboxLayout, routes: readonly EgressRoute[]) {
  if (routes.some((route) => route.port < 1024)) {
    if (!tools.nsenter) throw new LaunchError('allow-listed ports below 1024 need nsenter (util-linux)');
    const setting = 'echo 0 > /proc/sys/net/ipv4/ip_unprivileged_port_start';
    await promisify(execFile)(tools.nsenter, [`--net=/proc/${pid}/ns/net`, '--', '/bin/sh', '-c', setting]);
  }
  await writeFile(join(layout.egress, EGRESS_READY), '', { mode: 0o644 });
}

/** How a sandbox ended, for a person: killed for its memory, by a signal, or with an exit code; its last stderr. */
export async function describeEnding(
  ending: Ending,
  cgroups: SandboxCgroups | undefined,
  limits: ResourceLimits,
): Promise<string> {
  let how = ending.signal ? `was killed by ${ending.signal}` : `exited with code ${ending.code}`;
  if (await cgroups?.oomKilled()) {
    how = `was killed: it went over its memory limit of ${Math.round(limits.memoryBytes / 2 ** 20)} MiB`;
  }
  const tail = ending.stderr.slice(-5).join(' | ');
  return tail ? `${how}: ${tail}` : how;
}

export function scaled(limits: ResourceLimits, factor: number): ResourceLimits {
  return { memoryBytes: limits.memoryBytes * factor, cpus: limits.cpus * factor, processes: limits.processes * factor };
}

function agentArgs(port: number, dataDir: string): string[] {
  return ['agent-server', '--host', '127.0.0.1', '--port', String(port), '--data-dir', dataDir];
}

/**
 * [join its cgroups] [become its user] [rlimits] bwrap ...: each step execs the next, so bwrap's parent is this
 * process (`--die-with-parent`) and every process of the sandbox starts inside its cgroups.
 */
function isolatedArgv(
  options: LauncherOptions,
  layout: SandboxLayout,
  spec: LocalSpec,
  routes: readonly EgressRoute[],
  limits: ResourceLimits,
  cgroups: SandboxCgroups | undefined,
  seccomp: boolean,
): string[] {
  const { tools } = options;
  if (!tools.bwrap) throw new LaunchError('bubblewrap is not installed');
  const ownNetwork = spec.network.mode !== 'open';
  if (ownNetwork && !tools.socat)
    throw new LaunchError(`network ${spec.network.mode} needs socat, which is not installed`);
  const argv: string[] = [];
  if (cgroups) {
    const files = cgroups.procsFiles;
    const join = 'n=$1; shift; while [ "$n" -gt 0 ]; do echo $$ > "$1"; shift; n=$((n-1)); done; exec "$@"';
    argv.push('/bin/sh', '-c', join, 'cgroup-join', String(files.length), ...files);
  }
  if (process.getuid?.() === 0 && spec.uid !== 0) {
    if (!tools.setpriv) throw new LaunchError('setpriv (util-linux) is needed to run sandboxes as another user');
    argv.push(tools.setpriv, `--reuid=${spec.uid}`, `--regid=${spec.gid}`, '--clear-groups', '--');
  }
  const rlimits = ['--core=0'];
  if (!cgroups?.procsFiles.some((file) => file.includes('pids'))) rlimits.push(`--nproc=${limits.processes}`);
  if (!options.cgroups.enforced.some((line) => line.startsWith('memory'))) rlimits.push(`--data=${limits.memoryBytes}`);
  if (tools.prlimit) argv.push(tools.prlimit, ...rlimits, '--');
  const command = [...spec.command, ...agentArgs(ownNetwork ? AGENT_PORT : 0, SANDBOX_DATA_DIR)];
  const bwrap = bwrapArgs({
    layout,
    workingDir: spec.workingDir,
    readOnlyPaths: options.readOnlyPaths,
    hiddenPaths: options.hiddenPaths,
    network: spec.network,
    egress: routes,
    infoFd: 3,
    ...(seccomp ? { seccompFd: SECCOMP_FD } : {}),
    socat: tools.socat ?? 'socat',
    command,
  });
  return [...argv, tools.bwrap, ...bwrap];
}

/** The agent server as a plain child process, stopped by the kernel when this process dies. */
function unsafeArgv(options: LauncherOptions, layout: SandboxLayout, spec: LocalSpec): string[] {
  const watch = options.tools.setpriv ? [options.tools.setpriv, '--pdeathsig', 'SIGKILL', '--'] : [];
  return [...watch, ...spec.command, ...agentArgs(0, layout.data)];
}

function environment(spec: LocalSpec, key: string, unsafeLayout: SandboxLayout | undefined): Record<string, string> {
  const passed = Object.fromEntries(
    PASSED_THROUGH.flatMap((name) => (process.env[name] ? [[name, process.env[name]]] : [])),
  );
  const home = unsafeLayout?.home ?? SANDBOX_HOME;
  return {
    PATH: `${dirname(process.execPath)}:/usr/local/bin:/usr/bin:/bin:/usr/local/sbin:/usr/sbin:/sbin`,
    HOME: home,
    USER: 'sandbox',
    LOGNAME: 'sandbox',
    SHELL: '/bin/sh',
    TMPDIR: '/tmp',
    ...passed,
    BOSUN_LOG_LEVEL: 'info',
    ...spec.environment,
    BOSUN_SESSION_API_KEYS: key,
    BOSUN_WORKSPACE_ROOT: unsafeLayout?.workspace ?? spec.workingDir,
  };
}
