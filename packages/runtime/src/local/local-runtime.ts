import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import type { SandboxStatus } from '@bosun/protocol';
import {
  type Runtime,
  type RuntimeHealth,
  type RuntimeSandbox,
  SandboxConflictError,
  SandboxNotFoundError,
  SandboxSpecError,
  type SandboxStartSpec,
} from '../runtime.ts';
import { SerialQueues } from '../serial-queues.ts';
import { newSessionKey } from '../session-keys.ts';
import { checkStartSpec } from '../spec.ts';
import { isolationOf } from './host-report.ts';
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
import { type LocalRuntimeOptions, setUp } from './local-options.ts';
import { localSpecOf } from './local-spec.ts';
import { loadRecords, saveRecord } from './records.ts';

interface Entry {
  id: string;
  spec: LocalSpec;
  createdAt: string;
  status: SandboxStatus;
  statusDetail: string | null;
  key: string | null;
  running: (Launched & { stopping: boolean }) | undefined;
}

const RESTARTED = 'the runtime restarted (its sandboxes stopped with it): resume it to start it again';

/**
 * Sandboxes on this machine, each a `bosun agent-server` under bubblewrap (see README.md for what is isolated and
 * how). Each sandbox's record (never its key) is saved beside its directories: sandboxes die with the runtime
 * (`--die-with-parent`), and a new runtime over the same root finds them PAUSED. One runtime per root.
 */
export class LocalRuntime implements Runtime {
  private readonly entries = new Map<string, Entry>();
  private readonly queues = new SerialQueues();
  private closing = false;

  private constructor(
    private readonly options: LocalRuntimeOptions,
    private readonly launcher: LauncherOptions,
    private readonly defaultCommand: string[],
    private readonly health_: Omit<RuntimeHealth, 'running'>,
  ) {}

  /** Refuses to open without bubblewrap unless `unsafeNoIsolation` is given (and then says so in the log). */
  static async open(options: LocalRuntimeOptions): Promise<LocalRuntime> {
    const setup = await setUp(options);
    const runtime = new LocalRuntime({ ...options, root: setup.root }, setup.launcher, setup.command, setup.health);
    await runtime.restore();
    return runtime;
  }

  /**
   * Takes over the sandboxes a previous runtime over the same root left: those it ran died with it, and are PAUSED
   * (resuming one starts it over its workspace with a new key); none is started by itself.
   */
  private async restore(): Promise<void> {
    for (const record of await loadRecords(this.options.root)) {
      const entry: Entry = { ...record, key: null, running: undefined };
      this.entries.set(record.id, entry);
      if (record.status === 'STARTING' || record.status === 'RUNNING') await this.settle(entry, 'PAUSED', RESTARTED);
    }
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
    return this.queues.run(id, async () => {
      await this.run(entry);
      return this.view(entry);
    });
  }

  stop(id: string): Promise<void> {
    return this.queues.run(id, async () => {
      const entry = this.entry(id);
      await this.halt(entry);
      this.entries.delete(id);
      await rm(this.layoutOf(id).dir, { recursive: true, force: true });
    });
  }

  pause(id: string): Promise<RuntimeSandbox> {
    return this.queues.run(id, async () => {
      const entry = this.entry(id);
      await this.halt(entry);
      if (entry.status === 'STARTING' || entry.status === 'RUNNING') await this.settle(entry, 'PAUSED', null);
      return this.view(entry);
    });
  }

  resume(id: string): Promise<RuntimeSandbox> {
    return this.queues.run(id, async () => {
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
    await this.queues.idle();
    await Promise.all(
      [...this.entries.values()]
        .filter((entry) => entry.running)
        .map((entry) =>
          this.queues.run(entry.id, async () => {
            await this.halt(entry);
            await this.settle(entry, 'PAUSED', 'the runtime stopped');
          }),
        ),
    );
  }

  /** Starts its agent server with a new key: RUNNING, or ERROR with why not. */
  private async run(entry: Entry): Promise<void> {
    if (this.closing) return this.settle(entry, 'PAUSED', 'the runtime is stopping');
    await this.settle(entry, 'STARTING', null);
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
    await this.settle(entry, 'RUNNING', null);
    void launched.process.ended.then(async (ending) => {
      if (running.stopping) return;
      const limits = scaled(this.launcher.limits, entry.spec.resourceFactor);
      const how = await describeEnding(ending, launched.cgroups, limits);
      await this.release(running);
      if (entry.running === running) {
        entry.running = undefined;
        await this.settle(entry, 'ERROR', `its agent server ${how}`).catch(() => {});
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

  /** Every status but RUNNING revokes the key; each change is saved (a restarted runtime knows its sandboxes). */
  private async settle(entry: Entry, status: SandboxStatus, detail: string | null): Promise<void> {
    entry.status = status;
    entry.statusDetail = detail;
    if (status !== 'RUNNING') entry.key = null;
    await this.save(entry);
  }

  private async save(entry: Entry): Promise<void> {
    if (!this.entries.has(entry.id)) return;
    const { id, spec, createdAt, status, statusDetail } = entry;
    await saveRecord(this.layoutOf(id).dir, { id, spec, createdAt, status, statusDetail });
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
}
