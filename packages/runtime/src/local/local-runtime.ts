import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { SandboxStatus } from '@bosun/protocol';
import {
  type NetworkPolicy,
  type Runtime,
  type RuntimeHealth,
  type RuntimeSandbox,
  SandboxConflictError,
  SandboxNotFoundError,
  SandboxSpecError,
  type SandboxStartSpec,
} from '../runtime.ts';
import { newSessionKey } from '../session-keys.ts';
import { checkStartSpec } from '../spec.ts';
import { ownBosunCommand } from './bosun-command.ts';
import { Cgroups, type ResourceLimits } from './cgroups.ts';
import { describeHost, isolationOf, prepareRoot } from './host-report.ts';
import { findHostTools } from './host-tools.ts';
import {
  LaunchError,
  type Launched,
  type LauncherOptions,
  type LocalSpec,
  describeEnding,
  launch,
  scaled,
} from './launcher.ts';
import { SandboxLayout } from './layout.ts';
import { localSpecOf } from './local-spec.ts';

export interface LocalRuntimeOptions {
  /** Where sandboxes live: `<root>/<id>/` (workspace, data, home, log). Never visible to a sandbox. */
  root: string;
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
  logger?: { warn(message: string): void };
}

interface Entry {
  id: string;
  spec: LocalSpec;
  createdAt: string;
  status: SandboxStatus;
  statusDetail: string | null;
  key: string | null;
  running: (Launched & { stopping: boolean }) | undefined;
}

const DEFAULT_LIMITS: ResourceLimits = { memoryBytes: 2 * 2 ** 30, cpus: 1, processes: 1024 };

/**
 * Sandboxes on this machine, each a `bosun agent-server` under bubblewrap (see README.md for what is isolated and
 * how). Its records live in memory: sandboxes die with the runtime (`--die-with-parent`), and a new runtime over
 * the same root starts with none (their directories stay until stopped by whoever kept their ids).
 */
export class LocalRuntime implements Runtime {
  private readonly entries = new Map<string, Entry>();
  private readonly queues = new Map<string, Promise<unknown>>();
  private closing = false;

  private constructor(
    private readonly options: LocalRuntimeOptions,
    private readonly launcher: LauncherOptions,
    private readonly defaultCommand: string[],
    private readonly health_: Omit<RuntimeHealth, 'running'>,
  ) {}

  /** Refuses to open without bubblewrap unless `unsafeNoIsolation` is given (and then says so in the log). */
  static async open(options: LocalRuntimeOptions): Promise<LocalRuntime> {
    const tools = findHostTools(options.bwrapPath);
    const unsafe = tools.bwrap === undefined;
    if (unsafe && !options.unsafeNoIsolation) {
      const fix = 'install it (Debian: apt-get install bubblewrap), or give unsafeNoIsolation';
      const unsafeMeans = 'to run them as plain processes that see everything this process sees';
      throw new Error(
        `bubblewrap (${options.bwrapPath ?? 'bwrap'}) is not installed, so sandboxes cannot be isolated: ${fix} ${unsafeMeans}`,
      );
    }
    const root = resolve(options.root);
    await prepareRoot(root);
    const cgroups = await Cgroups.probe();
    const own = options.command && options.readOnlyPaths ? undefined : ownBosunCommand();
    const launcher: LauncherOptions = {
      tools,
      cgroups,
      unsafe,
      readOnlyPaths: options.readOnlyPaths ?? own?.installation ?? [],
      hiddenPaths: [root, ...(options.hiddenPaths ?? []), ...(options.readOnlyPaths ? [] : (own?.hidden ?? []))].map(
        (path) => resolve(path),
      ),
      limits: { ...DEFAULT_LIMITS, ...options.limits },
      startTimeoutMs: options.startTimeoutMs ?? 60_000,
    };
    const health = describeHost(tools, cgroups, unsafe);
    if (unsafe) options.logger?.warn(`sandboxes are NOT isolated: ${health.notEnforced[0]}`);
    return new LocalRuntime({ ...options, root }, launcher, [...(options.command ?? own?.command ?? [])], health);
  }

  async start(request: SandboxStartSpec): Promise<RuntimeSandbox> {
    checkStartSpec(request);
    const spec = localSpecOf(request, {
      command: this.defaultCommand,
      network: this.options.network ?? { mode: 'none' },
      user: this.options.defaultUser ?? 10001,
      lowPorts: process.getuid?.() === 0 && this.launcher.tools.nsenter !== undefined,
    });
    const live = [...this.entries.values()].find((entry) => entry.spec.sessionId === spec.sessionId);
    if (live) throw new SandboxSpecError(`session_id: sandbox ${live.id} already has session ${spec.sessionId}`);
    const id = randomUUID().replaceAll('-', '');
    const entry: Entry = {
      id,
      spec,
      createdAt: new Date().toISOString(),
      status: 'STARTING',
      statusDetail: null,
      key: null,
      running: undefined,
    };
    this.entries.set(id, entry);
    return this.serially(id, async () => {
      await this.run(entry);
      return this.view(entry);
    });
  }

  stop(id: string): Promise<void> {
    return this.serially(id, async () => {
      const entry = this.entry(id);
      await this.halt(entry);
      this.entries.delete(id);
      await rm(this.layoutOf(id).dir, { recursive: true, force: true });
    });
  }

  pause(id: string): Promise<RuntimeSandbox> {
    return this.serially(id, async () => {
      const entry = this.entry(id);
      await this.halt(entry);
      if (entry.status === 'STARTING' || entry.status === 'RUNNING') this.settle(entry, 'PAUSED', null);
      return this.view(entry);
    });
  }

  resume(id: string): Promise<RuntimeSandbox> {
    return this.serially(id, async () => {
      const entry = this.entry(id);
      const status = this.view(entry).status;
      if (status !== 'PAUSED' && status !== 'ERROR') {
        throw new SandboxConflictError(`sandbox ${id} is ${status}: only a PAUSED or ERROR one resumes`, status);
      }
      await this.run(entry);
      return this.view(entry);
    });
  }

  async get(id: string): Promise<RuntimeSandbox | undefined> {
    const entry = this.entries.get(id);
    return entry && this.view(entry);
  }

  async getBySession(sessionId: string): Promise<RuntimeSandbox | undefined> {
    const entry = [...this.entries.values()].find((candidate) => candidate.spec.sessionId === sessionId);
    return entry && this.view(entry);
  }

  async getManyBySession(sessionIds: readonly string[]): Promise<(RuntimeSandbox | undefined)[]> {
    const bySession = new Map([...this.entries.values()].map((entry) => [entry.spec.sessionId, entry]));
    return sessionIds.map((sessionId) => {
      const entry = bySession.get(sessionId);
      return entry && this.view(entry);
    });
  }

  async list(): Promise<RuntimeSandbox[]> {
    const live = [...this.entries.values()].filter(({ status }) => status === 'STARTING' || status === 'RUNNING');
    return live.map((entry) => this.view(entry));
  }

  async health(): Promise<RuntimeHealth> {
    const running = [...this.entries.values()].filter((entry) => entry.running).length;
    return { ...this.health_, running };
  }

  async close(): Promise<void> {
    this.closing = true;
    await Promise.all(this.queues.values());
    await Promise.all(
      [...this.entries.values()]
        .filter((entry) => entry.running)
        .map((entry) =>
          this.serially(entry.id, async () => {
            await this.halt(entry);
            this.settle(entry, 'PAUSED', 'the runtime stopped');
          }),
        ),
    );
  }

  /** Starts its agent server with a new key: RUNNING, or ERROR with why not. */
  private async run(entry: Entry): Promise<void> {
    if (this.closing) return this.settle(entry, 'PAUSED', 'the runtime is stopping');
    this.settle(entry, 'STARTING', null);
    const key = newSessionKey();
    let launched: Launched;
    try {
      launched = await launch(this.launcher, entry.id, this.layoutOf(entry.id), entry.spec, key);
    } catch (error) {
      const detail = error instanceof LaunchError ? error.message : `it did not start: ${(error as Error).message}`;
      return this.settle(entry, 'ERROR', detail);
    }
    const running = { ...launched, stopping: false };
    entry.running = running;
    entry.key = key;
    entry.status = 'RUNNING';
    void launched.process.ended.then(async (ending) => {
      if (running.stopping) return;
      const limits = scaled(this.launcher.limits, entry.spec.resourceFactor);
      const how = await describeEnding(ending, launched.cgroups, limits);
      await this.release(running);
      if (entry.running === running) {
        entry.running = undefined;
        this.settle(entry, 'ERROR', `its agent server ${how}`);
      }
    });
  }

  /** Stops its process, if it runs, and revokes its key. */
  private async halt(entry: Entry): Promise<void> {
    const running = entry.running;
    entry.key = null;
    if (!running) return;
    running.stopping = true;
    await running.process.stop(this.options.stopGraceMs ?? 10_000);
    await this.release(running);
    entry.running = undefined;
  }

  private async release(running: Launched): Promise<void> {
    await running.process.release();
    await running.egress?.close();
    await running.cgroups?.remove().catch((error: Error) => {
      this.options.logger?.warn(`a sandbox's cgroup could not be removed: ${error.message}`);
    });
  }

  /** Every status but RUNNING revokes the key. */
  private settle(entry: Entry, status: SandboxStatus, detail: string | null): void {
    entry.status = status;
    entry.statusDetail = detail;
    entry.key = null;
  }

  private view(entry: Entry): RuntimeSandbox {
    const settled = entry.status === 'PAUSED' || entry.status === 'ERROR';
    const missing = settled && !existsSync(this.layoutOf(entry.id).workspace);
    return {
      id: entry.id,
      sessionId: entry.spec.sessionId,
      status: missing ? 'MISSING' : entry.status,
      statusDetail: missing ? 'its workspace no longer exists' : entry.statusDetail,
      url: entry.status === 'RUNNING' ? (entry.running?.process.url ?? null) : null,
      sessionApiKey: entry.status === 'RUNNING' ? entry.key : null,
      isolation: isolationOf(entry.spec, this.launcher.limits, this.launcher.cgroups, this.launcher.unsafe),
      createdAt: entry.createdAt,
    };
  }

  private entry(id: string): Entry {
    const entry = this.entries.get(id);
    if (!entry) throw new SandboxNotFoundError(id);
    return entry;
  }

  private layoutOf(id: string): SandboxLayout {
    return new SandboxLayout(this.options.root, id);
  }

  /** Runs `task` after every earlier task of the same sandbox (a pause never races a start). */
  private serially<T>(id: string, task: () => Promise<T>): Promise<T> {
    const previous = this.queues.get(id) ?? Promise.resolve();
    const next = previous.then(task, task);
    const settled = next.catch(() => {});
    this.queues.set(id, settled);
    void settled.then(() => {
      if (this.queues.get(id) === settled) this.queues.delete(id);
    });
    return next;
  }
}
