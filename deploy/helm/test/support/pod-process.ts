import { type ChildProcess, spawn } from 'node:child_process';
import { chmod, chown, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SANDBOX_BUNDLE } from '../../../../test/support/sandbox-bundle.ts';
import type { Container, KeyToPath, PodSpec, Volume } from './objects.ts';

/** The Secrets and ConfigMaps pods read, as the cluster would hold them: name -> key -> text. */
export interface ClusterData {
  secrets: ReadonlyMap<string, Record<string, string>>;
  configMaps: ReadonlyMap<string, Record<string, string>>;
}

function keyOf(data: ClusterData, kind: 'Secret' | 'ConfigMap', ref: { name: string; key: string }): string {
  const object = (kind === 'Secret' ? data.secrets : data.configMaps).get(ref.name);
  const value = object?.[ref.key];
  // Where the kubelet would keep the pod waiting (CreateContainerConfigError), the translation stops.
  if (value === undefined) throw new Error(`${kind} ${ref.name} has no key ${ref.key}: the pod would not start`);
  return value;
}

/**
 * The container's environment as the kubelet makes it: `valueFrom` read from the Secret or ConfigMap, `$(VAR)`
 * replaced by a variable defined earlier in the list (`$$` is a `$`, an unknown reference stays as written).
 */
export function environmentOf(container: Container, data: ClusterData): Record<string, string> {
  const env: Record<string, string> = {};
  for (const { name, value, valueFrom } of container.env ?? []) {
    if (valueFrom?.secretKeyRef) env[name] = keyOf(data, 'Secret', valueFrom.secretKeyRef);
    else if (valueFrom?.configMapKeyRef) env[name] = keyOf(data, 'ConfigMap', valueFrom.configMapKeyRef);
    else if (valueFrom) throw new Error(`${name}: valueFrom ${Object.keys(valueFrom).join()} is not translated here`);
    else
      env[name] = (value ?? '').replace(/\$\$|\$\(([A-Za-z_][A-Za-z0-9_]*)\)/g, (whole, ref?: string) =>
        ref === undefined ? '$' : (env[ref] ?? whole),
      );
  }
  return env;
}

/** A file of a volume: its path in the volume, its text and mode. */
type VolumeFile = [string, string, number];

function filesOf(volume: Volume, data: ClusterData): VolumeFile[] {
  const items = (kind: 'Secret' | 'ConfigMap', name: string, given?: KeyToPath[], mode = 0o644): VolumeFile[] => {
    const all = Object.keys((kind === 'Secret' ? data.secrets : data.configMaps).get(name) ?? {});
    const list: KeyToPath[] = given ?? all.map((key) => ({ key, path: key }));
    return list.map((item) => [item.path, keyOf(data, kind, { name, key: item.key }), item.mode ?? mode]);
  };
  const { secret, configMap, projected } = volume;
  if (secret) return items('Secret', secret.secretName, secret.items, secret.defaultMode);
  if (configMap) return items('ConfigMap', configMap.name, configMap.items, configMap.defaultMode);
  if (projected) {
    return projected.sources.flatMap((source) =>
      items('Secret', source.secret.name, source.secret.items, projected.defaultMode),
    );
  }
  if (volume.emptyDir) return [];
  throw new Error(`volume ${volume.name}: its kind is not translated here`);
}

/** Who a container's processes run as: its pod's (or its own) securityContext. */
export interface PodUser {
  uid: number;
  gid: number;
  fsGroup: number | undefined;
}

/**
 * The user the container runs as, when this process may take it (it runs as root, as the tests here do); undefined
 * otherwise, and the container runs as this process's user.
 */
export function podUserOf(pod: PodSpec, container: Container): PodUser | undefined {
  const uid = container.securityContext?.runAsUser ?? pod.securityContext?.runAsUser;
  if (process.getuid?.() !== 0 || uid === undefined) return undefined;
  const gid = container.securityContext?.runAsGroup ?? pod.securityContext?.runAsGroup ?? uid;
  return { uid, gid, fsGroup: pod.securityContext?.fsGroup };
}

/**
 * The pod's volumes the container mounts, as directories under the pod's `dir` (one per volume, which the pod's
 * containers share: the items of its Secret or ConfigMap, or of each source of a projected one; an emptyDir
 * empty): mount path -> directory. Owned as the kubelet leaves them: files root's with their mode, and with an
 * fsGroup that group's and readable by it; an emptyDir writable by anyone.
 */
export async function mountVolumes(
  pod: PodSpec,
  container: Container,
  data: ClusterData,
  dir: string,
): Promise<Map<string, string>> {
  const fsGroup = podUserOf(pod, container)?.fsGroup;
  const mounts = new Map<string, string>();
  for (const mount of container.volumeMounts ?? []) {
    const volume = pod.volumes?.find((candidate) => candidate.name === mount.name);
    if (!volume) throw new Error(`${container.name} mounts ${mount.name}, which the pod does not have`);
    if (mount.subPath) throw new Error(`${container.name}: the subPath of ${mount.name} is not translated here`);
    const where = join(dir, volume.name);
    await mkdir(where, { recursive: true });
    await chmod(where, volume.emptyDir ? 0o777 : 0o755);
    for (const [path, text, mode] of filesOf(volume, data)) {
      const file = join(where, path);
      await writeFile(file, text);
      await chmod(file, fsGroup === undefined ? mode : mode | 0o440);
      if (fsGroup !== undefined) await chown(file, 0, fsGroup);
    }
    mounts.set(mount.mountPath, where);
  }
  return mounts;
}

/**
 * The environment with each path under a mount path moved to the mount's directory, and TMPDIR naming what is
 * mounted at /tmp (in the pod the root file system is read-only: /tmp is that volume).
 */
export function withMountsMoved(env: Record<string, string>, mounts: ReadonlyMap<string, string>) {
  const moved = (value: string) => {
    for (const [path, dir] of mounts) {
      if (value === path || value.startsWith(`${path}/`)) return `${dir}${value.slice(path.length)}`;
    }
    return value;
  };
  const tmp = mounts.get('/tmp');
  return {
    ...Object.fromEntries(Object.entries(env).map(([name, value]) => [name, moved(value)])),
    ...(tmp ? { TMPDIR: tmp } : {}),
  };
}

/** The container's args listening on loopback: `--host` 127.0.0.1, `--port <containerPort>` 0 (a free port). */
export function loopbackArgs(container: Container): string[] {
  const ports = new Set((container.ports ?? []).map((port) => String(port.containerPort)));
  return (container.args ?? []).map((arg, at, args) => {
    if (args[at - 1] === '--host') return '127.0.0.1';
    if (args[at - 1] === '--port' && ports.has(arg)) return '0';
    return arg;
  });
}

/** A container of the Bosun image run as a process: its args and environment, its user and home directory. */
export interface ContainerRun {
  args: string[];
  env: Record<string, string>;
  home: string;
  user: PodUser | undefined;
}

const children = new Set<ChildProcess>();

/**
 * The image's entrypoint `bosun` runs `node --enable-source-maps packages/cli/dist/bosun.mjs` (deploy/Dockerfile):
 * here the same bundle, built by this test run's global setup, as the pod's user, with the image's NODE_ENV, its
 * user's home as HOME and working directory, and PATH (for the programs Bosun runs); nothing else of this process's
 * environment.
 */
function spawnBosun(run: ContainerRun): ChildProcess {
  const child = spawn(process.execPath, ['--enable-source-maps', SANDBOX_BUNDLE, ...run.args], {
    ...(run.user ? { uid: run.user.uid, gid: run.user.gid } : {}),
    cwd: run.home,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', NODE_ENV: 'production', HOME: run.home, ...run.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

function collect(child: ChildProcess): () => string {
  let output = '';
  for (const stream of [child.stdout, child.stderr]) {
    stream?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
  }
  return () => output;
}

/** Runs a one-shot container (a migration, a command run in a container) to its exit: its code and output. */
export async function runToExit(run: ContainerRun): Promise<{ code: number | null; stdout: string; output: string }> {
  const child = spawnBosun(run);
  const output = collect(child);
  let stdout = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  return { code, stdout, output: output() };
}

/** A server container running as a process. */
export interface ServerProcess {
  /** Where it listens (`http://127.0.0.1:PORT`). */
  url: string;
  output(): string;
  /** SIGTERM, as Kubernetes stops a container, and its exit. */
  stop(): Promise<void>;
}

/** Starts a server container; resolves once it says where it listens, rejects with its output if it exits first. */
export function startServer(run: ContainerRun): Promise<ServerProcess> {
  const child = spawnBosun(run);
  const output = collect(child);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  return new Promise((resolve, reject) => {
    const early = () => reject(new Error(`bosun ${run.args[0]} exited before listening:\n${output()}`));
    child.once('exit', early);
    const listening = () => {
      const url = /listening on (http:\/\/\S+)/.exec(output())?.[1];
      if (!url) return;
      child.off('exit', early);
      child.stdout?.off('data', listening);
      resolve({ url, output, stop });
    };
    child.stdout?.on('data', listening);
  });
}

/** Kills what is still running of the processes started here (an afterAll's last resort). */
export function killContainers(): void {
  for (const child of children) child.kill('SIGKILL');
}
