import { rm } from 'node:fs/promises';
import type { SandboxStatus } from '@bosun/protocol';
import { SandboxConflictError, SandboxSpecError } from '../errors.ts';
import { Sweeper } from '../lifecycle.ts';
import type { ResumeRefresh, Runtime, RuntimeHealth, RuntimeSandbox, SandboxStartSpec } from '../runtime.ts';
import { SerialQueues } from '../serial-queues.ts';
import { newSessionKey } from '../session-keys.ts';
import { checkStartSpec, refreshedRequest } from '../spec.ts';
import { FileSandboxStore } from '../store/file-store.ts';
import type { SandboxStore } from '../store/sandbox-store.ts';
import { type WarmPoolConfig, resolvePools, warmConfigWire } from '../warm-pools.ts';
import { Entries, type Entry, halt, release, sweepCandidateOf, viewOf } from './entry.ts';
import {
  LaunchError,
  type Launched,
  type LauncherOptions,
  type LocalSpec,
  describeEnding,
  launch,
  scaled,
} from './launcher.ts';
import { type SandboxLayout, sandboxLayout } from './layout.ts';
import { type LocalRuntimeOptions, setUp } from './local-options.ts';
import { localSpecOf, requestOf } from './local-spec.ts';
import { WarmKeeper } from './warm-keeper.ts';

const RESTARTED = 'the runtime restarted (its sandboxes stopped with it): resume it to start it again';

/**
 * Sandboxes on this machine, each a `bosun agent-server` under bubblewrap (see README.md for what is isolated and
 * how). Every change of a sandbox is written to its store (never its key): sandboxes die with the runtime
 * (`--die-with-parent`), and a new runtime over the same root and store finds them PAUSED. One runtime per root.
 * Sandboxes waiting in a warm pool are entries with a `pool`, invisible to every caller until one is claimed.
 */
export class LocalRuntime implements Runtime {
  private readonly entries = new Entries();
  private readonly queues = new SerialQueues();
  private readonly warm: WarmKeeper;
  private readonly sweeper: Sweeper;
  private closing = false;

  private constructor(
    private readonly options: LocalRuntimeOptions,
    private readonly launcher: LauncherOptions,
    private readonly defaultCommand: string[],
    private readonly health_: Omit<RuntimeHealth, 'running'>,
    private readonly store: SandboxStore<LocalSpec>,
  ) {
    const pools = resolvePools(options.warmPools ?? [], (spec) => this.localSpec(spec));
    this.warm = new WarmKeeper(pools, {
      ...{ entries: this.entries, queues: this.queues, logger: options.logger },
      ...{ run: (entry) => this.run(entry), remove: (entry) => this.remove(entry), closing: () => this.closing },
    });
    this.sweeper = new Sweeper(options.lifecycle ?? {}, {
      candidates: () => this.entries.claimed().map(sweepCandidateOf),
      pause: (id, detail) => this.pauseIf(id, 'RUNNING', detail),
      bury: (id, detail) => this.bury(id, detail),
    });
  }

  /** Where its sandboxes are: the root it was given, or where it moved them (see `prepareRoot`). */
  get root(): string {
    return this.options.root;
  }

  /** Refuses to open without bubblewrap unless `unsafeNoIsolation` is given (saying so); owns and closes `store`. */
  static async open(options: LocalRuntimeOptions): Promise<LocalRuntime> {
    const setup = await setUp(options);
    const store = options.store ?? new FileSandboxStore<LocalSpec>(setup.root);
    try {
      const runtime = new LocalRuntime(
        { ...options, root: setup.root },
        setup.launcher,
        setup.command,
        setup.health,
        store,
      );
      await runtime.restore();
      runtime.warm.refill();
      return runtime;
    } catch (error) {
      await store.close();
      throw error;
    }
  }

  /**
   * Takes over the sandboxes a previous runtime left: those it ran died with it, and are PAUSED (resuming one starts
   * it over its workspace with a new key); none is started by itself. Unclaimed warm ones are deleted.
   */
  private async restore(): Promise<void> {
    for (const record of await this.store.load()) {
      const entry: Entry = { ...record, key: null, running: undefined };
      this.entries.set(entry);
      if (record.pool !== null) await this.remove(entry);
      else if (record.status === 'STARTING' || record.status === 'RUNNING')
        await this.settle(entry, 'PAUSED', RESTARTED);
    }
  }

  async start(request: SandboxStartSpec): Promise<RuntimeSandbox> {
    checkStartSpec(request);
    const spec = this.localSpec(request);
    const live = this.entries.bySession(spec.sessionId);
    if (live) throw new SandboxSpecError(`session_id: sandbox ${live.id} already has session ${spec.sessionId}`);
    const warm = this.warm.claim(spec);
    if (warm) {
      return this.queues.run(warm.id, async () => {
        await this.save(warm);
        return this.view(warm);
      });
    }
    const entry = this.entries.add(spec, null);
    return this.queues.run(entry.id, async () => {
      await this.run(entry);
      return this.view(entry);
    });
  }

  stop(id: string): Promise<void> {
    return this.queues.run(id, async () => this.remove(this.entries.expect(id)));
  }

  pause(id: string): Promise<RuntimeSandbox> {
    return this.queues.run(id, async () => {
      const entry = this.entries.expect(id);
      await this.halt(entry);
      if (entry.status === 'STARTING' || entry.status === 'RUNNING') await this.settle(entry, 'PAUSED', null);
      return this.view(entry);
    });
  }

  /** With `refresh`, its spec takes the new environment and network (saved by the run: later resumes keep them). */
  resume(id: string, refresh?: ResumeRefresh): Promise<RuntimeSandbox> {
    return this.queues.run(id, async () => {
      const entry = this.entries.expect(id);
      const status = this.view(entry).status;
      if (status !== 'PAUSED' && status !== 'ERROR') {
        throw new SandboxConflictError(`sandbox ${id} is ${status}: only a PAUSED or ERROR one resumes`, status);
      }
      if (refresh) entry.spec = this.localSpec(refreshedRequest(requestOf(entry.spec), refresh));
      await this.run(entry);
      return this.view(entry);
    });
  }

  async get(id: string): Promise<RuntimeSandbox | undefined> {
    const entry = this.entries.get(id);
    return entry && this.view(entry);
  }

  async getBySession(sessionId: string): Promise<RuntimeSandbox | undefined> {
    const entry = this.entries.bySession(sessionId);
    return entry && this.view(entry);
  }

  async getManyBySession(sessionIds: readonly string[]): Promise<(RuntimeSandbox | undefined)[]> {
    const bySession = new Map(this.entries.claimed().map((entry) => [entry.spec.sessionId, entry]));
    return sessionIds.map((sessionId) => {
      const entry = bySession.get(sessionId);
      return entry && this.view(entry);
    });
  }

  async list(): Promise<RuntimeSandbox[]> {
    const live = this.entries.claimed().filter(({ status }) => status === 'STARTING' || status === 'RUNNING');
    return live.map((entry) => this.view(entry));
  }

  async health(): Promise<RuntimeHealth> {
    const running = this.entries.claimed().filter((entry) => entry.running).length;
    return { ...this.health_, running, warm: this.warm.counts() };
  }

  /**
   * A warm pool added once the runtime runs (e.g. by an app whose sandboxes' environment names its own URL, known
   * only once it listens); filled in the background. Throws for a bad pool or a name already taken.
   */
  addWarmPool(config: WarmPoolConfig): void {
    const [pool] = resolvePools([config], (spec) => this.localSpec(spec));
    if (pool) this.warm.add(pool);
  }

  /** The warm pools, as `/api/warm-runtime-configs` answers them. */
  warmConfigs() {
    return this.warm.pools.map((pool) =>
      warmConfigWire(pool, { run_as_user: pool.shape.uid, run_as_group: pool.shape.gid }),
    );
  }

  async close(): Promise<void> {
    this.closing = true;
    await this.sweeper.stop();
    await this.warm.idle();
    await this.queues.idle();
    const running = this.entries.all().filter((entry) => entry.running);
    await Promise.all(
      running.map((entry) =>
        this.queues.run(entry.id, async () => {
          if (entry.pool !== null) return this.remove(entry);
          await this.halt(entry);
          await this.settle(entry, 'PAUSED', 'the runtime stopped');
        }),
      ),
    );
    await this.store.close();
  }

  private localSpec(request: SandboxStartSpec): LocalSpec {
    return localSpecOf(request, {
      command: this.defaultCommand,
      network: this.options.network ?? { mode: 'none' },
      user: this.options.defaultUser ?? 10001,
      lowPorts: process.getuid?.() === 0 && this.launcher.tools.nsenter !== undefined,
    });
  }

  /** Starts its agent server with a new key: RUNNING, or ERROR with why not. */
  private async run(entry: Entry): Promise<void> {
    if (this.closing) return this.settle(entry, 'PAUSED', 'the runtime is stopping');
    await this.settle(entry, 'STARTING', null);
    const key = newSessionKey();
    let launched: Launched;
    try {
      const spec = entry.spec.commandIsDefault ? { ...entry.spec, command: [...this.defaultCommand] } : entry.spec;
      launched = await launch(this.launcher, entry.id, this.layoutOf(entry.id), spec, key);
    } catch (error) {
      const detail = error instanceof LaunchError ? error.message : `it did not start: ${(error as Error).message}`;
      return this.settle(entry, 'ERROR', detail);
    }
    const running = { ...launched, stopping: false };
    entry.running = running;
    entry.key = key;
    await this.settle(entry, 'RUNNING', null);
    void launched.process.ended.then(async (ending) => {
      if (running.stopping) return;
      const limits = scaled(this.launcher.limits, entry.spec.resourceFactor);
      const how = await describeEnding(ending, launched.cgroups, limits);
      await release(running, this.options.logger);
      if (entry.running !== running) return;
      entry.running = undefined;
      await this.settle(entry, 'ERROR', `its agent server ${how}`).catch(() => {});
      if (entry.pool !== null) await this.queues.run(entry.id, () => this.remove(entry)).then(() => this.warm.refill());
    });
  }

  /** The sweep's pause: only when the sandbox is still in `status` (a caller may have changed it meanwhile). */
  private pauseIf(id: string, status: SandboxStatus, detail: string): Promise<void> {
    return this.queues.run(id, async () => {
      const entry = this.entries.get(id);
      if (!entry || entry.status !== status) return;
      await this.halt(entry);
      await this.settle(entry, 'PAUSED', detail);
    });
  }

  /** The sweep's deletion of a long-dead sandbox: its directories go, its record stays, MISSING with why. */
  private bury(id: string, detail: string): Promise<void> {
    return this.queues.run(id, async () => {
      const entry = this.entries.get(id);
      if (!entry || (entry.status !== 'PAUSED' && entry.status !== 'ERROR')) return;
      await this.settle(entry, 'MISSING', detail);
      await rm(this.layoutOf(id).dir, { recursive: true, force: true, maxRetries: 5 });
    });
  }

  private async remove(entry: Entry): Promise<void> {
    await this.halt(entry);
    this.entries.delete(entry.id);
    await this.store.remove(entry.id);
    await rm(this.layoutOf(entry.id).dir, { recursive: true, force: true, maxRetries: 5 });
  }

  private halt(entry: Entry): Promise<void> {
    return halt(entry, this.options.stopGraceMs ?? 10_000, this.options.logger);
  }

  /** Every status but RUNNING revokes the key; each change is saved (a restarted runtime knows its sandboxes). */
  private async settle(entry: Entry, status: SandboxStatus, detail: string | null): Promise<void> {
    if (entry.status !== status) entry.changedAt = new Date().toISOString();
    entry.status = status;
    entry.statusDetail = detail;
    if (status !== 'RUNNING') entry.key = null;
    await this.save(entry);
  }

  private async save(entry: Entry): Promise<void> {
    if (!this.entries.has(entry.id)) return;
    const { id, spec, createdAt, changedAt, status, statusDetail, pool } = entry;
    await this.store.save({ id, spec, createdAt, changedAt, status, statusDetail, pool });
  }

  private view(entry: Entry): RuntimeSandbox {
    return viewOf(entry, this.layoutOf(entry.id), this.launcher);
  }

  private layoutOf(id: string): SandboxLayout {
    return sandboxLayout(this.options.root, id);
  }
}
