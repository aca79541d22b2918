import { resolve } from 'node:path';
import type { LifecycleOptions } from '../lifecycle.ts';
import type { NetworkPolicy, RuntimeHealth } from '../runtime.ts';
import type { SandboxStore } from '../store/sandbox-store.ts';
import type { WarmPoolConfig } from '../warm-pools.ts';
import { ownBosunCommand } from './bosun-command.ts';
import { Cgroups, type ResourceLimits } from './cgroups.ts';
import { describeHost, prepareRoot } from './host-report.ts';
import { findHostTools } from './host-tools.ts';
import type { LauncherOptions, LocalSpec } from './launcher.ts';
import { sandboxBosunCommand } from './sandbox-bundle.ts';

export interface LocalRuntimeOptions {
  /**
   * Where sandboxes live: `<root>/<id>/` (workspace, data, home, log). Never visible to a sandbox. When it is out
   * of the sandboxes' user's reach, `<traversableBase>/<hash of root>` instead (see `prepareRoot`).
   */
  root: string;
  /** Where sandboxes go when `root` is out of their user's reach (default `/var/lib/bosun/sandboxes`). */
  traversableBase?: string;
  /** The command before `agent-server` when a spec names none (default: the same Bosun this process runs). */
  command?: readonly string[];
  /** Host paths every sandbox sees read-only (default: the Bosun installation and the Node binary). */
  readOnlyPaths?: readonly string[];
  /** Host paths inside those that no sandbox may see: the app's data directory, its configuration. */
  hiddenPaths?: readonly string[];
  /** Per sandbox, for a resource factor of 1 (default 2 GiB, 1 CPU, 1024 processes). */
  limits?: Partial<ResourceLimits>;
  /** When a spec names none (default `none`). */
  network?: NetworkPolicy;
  /** Who sandboxes run as when the runtime runs as root and a spec names no one (default 10001). */
  defaultUser?: number;
  startTimeoutMs?: number;
  /** How long a stopping sandbox has before it is killed. */
  stopGraceMs?: number;
  bwrapPath?: string;
  /** Runs sandboxes as plain child processes when bubblewrap is missing: they see everything the runtime sees. */
  unsafeNoIsolation?: boolean;
  /**
   * `none`: sandboxes are plain child processes even where bubblewrap is installed (they see everything the runtime
   * sees: an app's `sandbox_isolation: unsafe-none`). Default `bubblewrap`.
   */
  isolation?: 'bubblewrap' | 'none';
  logger?: { warn(message: string): void };
  /** Where sandboxes' records are kept (default: `<root>/<id>/sandbox.json`); the runtime closes it. */
  store?: SandboxStore<LocalSpec>;
  /** Sandboxes started ahead of time, per shape (see ../warm-pools.ts for when a start is served by one). */
  warmPools?: readonly WarmPoolConfig[];
  /** Idle sandboxes paused, long-dead ones deleted (default: neither). */
  lifecycle?: LifecycleOptions;
}

const DEFAULT_LIMITS: ResourceLimits = { memoryBytes: 2 * 2 ** 30, cpus: 1, processes: 1024 };

/** What the options and this host give a local runtime: its root, how it launches, what it enforces. */
export async function setUp(options: LocalRuntimeOptions): Promise<{
  root: string;
  launcher: LauncherOptions;
  command: string[];
  health: Omit<RuntimeHealth, 'running'>;
}> {
  const tools = findHostTools(options.bwrapPath);
  const turnedOff = options.isolation === 'none';
  const unsafe = turnedOff || tools.bwrap === undefined;
  if (unsafe && !turnedOff && !options.unsafeNoIsolation) {
    const fix = 'install it (Debian: apt-get install bubblewrap), or give unsafeNoIsolation';
    const unsafeMeans = 'to run them as plain processes that see everything this process sees';
    throw new Error(
      `bubblewrap (${options.bwrapPath ?? 'bwrap'}) is not installed, so sandboxes cannot be isolated: ${fix} ${unsafeMeans}`,
    );
  }
  const prepared = await prepareRoot(resolve(options.root), options.traversableBase);
  const { root } = prepared;
  if (prepared.moved) options.logger?.warn(`sandboxes are in ${root}: ${prepared.moved}`);
  const cgroups = await Cgroups.probe();
  const own = options.command && options.readOnlyPaths ? undefined : ownBosunCommand();
  const hidden = [root, ...(options.hiddenPaths ?? []), ...(options.readOnlyPaths ? [] : (own?.hidden ?? []))];
  const launcher: LauncherOptions = {
    tools,
    cgroups,
    unsafe,
    readOnlyPaths: options.readOnlyPaths ?? own?.installation ?? [],
    hiddenPaths: hidden.map((path) => resolve(path)),
    limits: { ...DEFAULT_LIMITS, ...options.limits },
    startTimeoutMs: options.startTimeoutMs ?? 60_000,
  };
  const health = describeHost(tools, cgroups, unsafe && (turnedOff ? 'turned off' : 'missing'));
  if (unsafe) options.logger?.warn(`sandboxes are NOT isolated: ${health.notEnforced[0]}`);
  const command = options.command ?? (own ? await sandboxBosunCommand(own, options.logger) : []);
  return { root, launcher, command: [...command], health };
}
