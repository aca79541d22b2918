import { randomUUID } from 'node:crypto';
import {
  LocalRuntime,
  type NetworkPolicy,
  type Runtime,
  RuntimeUnavailableError,
  SandboxConflictError,
  SandboxNotFoundError,
  type SandboxStartSpec,
  SerialQueues,
} from '@bosun/runtime';
import type { SandboxRecord } from '../data/index.ts';
import type { SandboxesRepository } from '../data/repositories/sandboxes.ts';
import { keepLease } from '../data/row-leases.ts';
import { leaseMsOf, reconcile, settleAbandoned } from './reconcile.ts';
import { messageOf, orUnknown, unavailable } from './runtime-failures.ts';
import { catchUp, changeFor, lastKnownOf, sandboxOf } from './sandbox-view.ts';
import type { Sandbox, SandboxPageRequest, SandboxSpec, Sandboxes } from './sandboxes.ts';
import { sessionKeyHash } from './session-keys.ts';

/** What a sandbox of one owner starts with besides its spec, read at each start. */
export interface SandboxLaunch {
  /** More environment (where to post webhooks: known once the app listens). */
  environment?: Record<string, string>;
  network?: NetworkPolicy;
}

export interface RuntimeSandboxesOptions {
  repository: SandboxesRepository;
  runtime: Runtime;
  specs: readonly SandboxSpec[];
  /** Running sandboxes per user; starting one more pauses the user's least recently started (0: no cap). */
  maxRunningPerUser: number;
  /** The environment and network of a new sandbox of `ownerId` (null: of a user on the app's defaults). */
  launch?: (ownerId: string | null) => Promise<SandboxLaunch>;
  /**
   * Whether closing pauses what runs (an embedded runtime: its sandboxes would die with the app anyway), rather
   * than leaving it to a runtime service for the next run of the app to take over.
   */
  pauseOnClose: boolean;
  /**
   * How long a row another replica of the app changed or touched is left to it when this one opens (default: a
   * lease, 60 s, with a runtime service, which replicas share; none with an embedded runtime, which they cannot).
   */
  leaseMs?: number;
  /** Where browsers reach a running sandbox's agent server, when not at its own URL (`sandbox_urls`). */
  browserUrlOf?: (id: string) => string;
  /** Told each time a sandbox becomes RUNNING (new, or `resumed`); awaited before the sandbox is answered. */
  onRunning?: (sandbox: Sandbox, resumed: boolean) => void | Promise<void>;
  log?: { warn(details: object, message: string): void };
}

const LIVE = ['STARTING', 'RUNNING'];

/**
 * The app's sandboxes in a runtime (`@bosun/runtime`: embedded, or a runtime service): the app keeps who owns each,
 * its spec and the SHA-256 of its current key; the runtime runs them (sandbox id = the runtime's session id) and is
 * asked for their status, URL and key. Operations on one sandbox run one after another.
 */
export class RuntimeSandboxes implements Sandboxes {
  private readonly queues = new SerialQueues();
  private closing = false;

  private constructor(private readonly options: RuntimeSandboxesOptions) {}

  /** The service, once the rows the previous run of the app left live agree with the runtime (see reconcile.ts). */
  static async open(options: RuntimeSandboxesOptions): Promise<RuntimeSandboxes> {
    try {
      await reconcile(options.repository, options.runtime, { leaseMs: leaseMsOf(options) });
    } catch (error) {
      // Rows keep their last known status until the runtime answers (reads say so).
      if (!(error instanceof RuntimeUnavailableError)) throw error;
      options.log?.warn({ err: error }, 'sandboxes not reconciled: the runtime cannot be reached');
    }
    return new RuntimeSandboxes(options);
  }

  async start(spec: SandboxSpec, ownerId: string, options: { id?: string } = {}): Promise<Sandbox> {
    const id = options.id ?? randomUUID().replaceAll('-', '');
    await this.options.repository.create({ id, userId: ownerId, specId: spec.id, status: 'STARTING' });
    return this.queues.run(id, async () => {
      try {
        await this.makeRoom(ownerId, id);
        await this.launch(id, ownerId, spec);
      } catch (error) {
        if (!(error instanceof RuntimeUnavailableError)) throw error;
        await this.change(id, { status: 'ERROR', status_detail: `the runtime did not start it: ${error.message}` });
      }
      return this.launched(ownerId, id, false);
    });
  }

  pause(ownerId: string, id: string): Promise<Sandbox | undefined> {
    return this.queues.run(id, async () => {
      const record = await this.options.repository.get(ownerId, id);
      if (!record) return undefined;
      if (record.runtime_id !== null) {
        const paused = await orUnknown(this.options.runtime.pause(record.runtime_id)).catch(unavailable);
        if (paused) await this.change(id, { status: paused.status, status_detail: paused.statusDetail });
      } else if (LIVE.includes(record.status)) {
        await this.change(id, { status: 'PAUSED', status_detail: null });
      }
      return this.get(ownerId, id);
    });
  }

  resume(ownerId: string, id: string): Promise<Sandbox | undefined> {
    return this.queues.run(id, async () => {
      const [record, underWay] = await settleAbandoned(this.options, await this.options.repository.get(ownerId, id));
      if (!record || underWay) return record && this.view(record);
      // Asked of the runtime itself: a last known status would answer for a sandbox nobody could reach.
      const [current] = await this.views([record], { lastKnown: false });
      if (current?.status === 'RUNNING' || current?.status === 'MISSING') return current;
      const spec = this.options.specs.find((candidate) => candidate.id === record.spec_id);
      if (!spec) {
        await this.change(id, { status: 'ERROR', status_detail: `its spec ${record.spec_id} no longer exists` });
        return this.get(ownerId, id);
      }
      await this.makeRoom(ownerId, id);
      // One the runtime never started (it refused its spec, or could not be reached) starts anew.
      if (record.runtime_id === null) await this.launch(id, ownerId, spec);
      else await this.relaunch(id, ownerId, spec, record.runtime_id);
      return this.launched(ownerId, id, true);
    });
  }

  delete(ownerId: string, id: string): Promise<boolean> {
    return this.queues.run(id, async () => {
      const record = await this.options.repository.get(ownerId, id);
      if (!record) return false;
      if (record.runtime_id !== null) await orUnknown(this.options.runtime.stop(record.runtime_id)).catch(unavailable);
      return this.options.repository.delete(ownerId, id);
    });
  }

  async get(ownerId: string, id: string): Promise<Sandbox | undefined> {
    const record = await this.options.repository.get(ownerId, id);
    return record && this.view(record);
  }

  async getMany(ownerId: string, ids: readonly string[]): Promise<(Sandbox | undefined)[]> {
    const records = await this.options.repository.getMany(ownerId, ids);
    const views = new Map((await this.views(records)).map((sandbox) => [sandbox.id, sandbox]));
    return ids.map((id) => views.get(id));
  }

  async search(ownerId: string, page: SandboxPageRequest) {
    const found = await this.options.repository.page(ownerId, page);
    return { items: await this.views(found.items), next_page_id: found.next_page_id };
  }

  async bySessionKey(key: string): Promise<Sandbox | undefined> {
    const record = await this.options.repository.getBySessionKeyHash(sessionKeyHash(key));
    const sandbox = record && (await this.view(record));
    return sandbox?.sessionApiKey === key ? sandbox : undefined;
  }

  async close(): Promise<void> {
    this.closing = true;
    // A start under way finishes first (its sandbox is then paused with the others, not left behind).
    await this.queues.idle();
    if (!this.options.pauseOnClose) return;
    const running = await this.options.runtime.list();
    await Promise.all(
      running.map((sandbox) =>
        this.queues.run(sandbox.sessionId, async () => {
          await orUnknown(this.options.runtime.pause(sandbox.id));
          await this.change(sandbox.sessionId, { status: 'PAUSED', status_detail: 'the app server stopped' });
        }),
      ),
    );
  }

  /**
   * Keeps `count` sandboxes started ahead in an embedded runtime, shaped as a new sandbox of the first spec for a
   * user on the app's defaults (the same environment and network): such a start is then answered by one of them at
   * once (the runtime's match rule: packages/runtime/README.md). Called once the app listens, since the environment
   * names its URL. False when there is nothing to keep (no count, or a runtime service, which has its own pools).
   */
  async warmUp(count: number): Promise<boolean> {
    const [spec] = this.options.specs;
    const runtime = this.options.runtime;
    if (count === 0 || !spec || !(runtime instanceof LocalRuntime)) return false;
    const extra = (await this.options.launch?.(null)) ?? {};
    runtime.addWarmPool({ name: 'app', count, spec: startSpecOf(spec, extra) });
    return true;
  }

  /** Starts a new sandbox in the runtime: RUNNING, or ERROR with why not. */
  private async launch(id: string, ownerId: string, spec: SandboxSpec): Promise<void> {
    if (this.closing) return this.change(id, { status: 'PAUSED', status_detail: 'the app server is stopping' });
    await this.change(id, { status: 'STARTING', status_detail: null });
    // Another replica starting meanwhile leaves a start under way alone (reconcile.ts).
    const release = keepLease(() => this.options.repository.touch(id));
    try {
      const extra = (await this.options.launch?.(ownerId)) ?? {};
      const started = await this.options.runtime.start({ sessionId: id, ...startSpecOf(spec, extra) });
      await this.change(id, changeFor(started));
    } catch (error) {
      await this.change(id, { status: 'ERROR', status_detail: `the runtime did not start it: ${messageOf(error)}` });
    } finally {
      release();
    }
  }

  /**
   * Resumes it in the runtime, with a new key and, as a start, its spec's environment plus the owner's launch
   * environment and network read now (the app's URL or LLM endpoint may have changed since it started).
   */
  private async relaunch(id: string, ownerId: string, spec: SandboxSpec, runtimeId: string): Promise<void> {
    if (this.closing) return this.change(id, { status: 'PAUSED', status_detail: 'the app server is stopping' });
    try {
      const { environment, network } = startSpecOf(spec, (await this.options.launch?.(ownerId)) ?? {});
      const refresh = { environment, ...(network ? { network } : {}) };
      await this.change(id, changeFor(await this.options.runtime.resume(runtimeId, refresh)));
    } catch (error) {
      // Gone from the runtime, or no longer resumable: the view says what it is.
      if (error instanceof SandboxNotFoundError || error instanceof SandboxConflictError) return;
      if (error instanceof RuntimeUnavailableError) unavailable(error);
      await this.change(id, { status: 'ERROR', status_detail: `the runtime did not resume it: ${messageOf(error)}` });
    }
  }

  /** The sandbox after a start or resume; whoever listens is told when it runs. */
  private async launched(ownerId: string, id: string, resumed: boolean): Promise<Sandbox> {
    const sandbox = await this.get(ownerId, id);
    if (!sandbox) throw new Error(`sandbox ${id} vanished`);
    if (sandbox.status === 'RUNNING') await this.options.onRunning?.(sandbox, resumed);
    return sandbox;
  }

  /** Pauses the owner's least recently started sandboxes until one more may run. */
  private async makeRoom(ownerId: string, startingId: string): Promise<void> {
    const { maxRunningPerUser: cap, repository, runtime } = this.options;
    if (cap <= 0) return;
    const live = (await repository.withStatus(ownerId, LIVE)).filter((record) => record.id !== startingId);
    // Not through the other sandbox's queue: two starts of one user would wait on each other.
    for (const record of live.slice(0, Math.max(0, live.length - cap + 1))) {
      const paused = record.runtime_id === null ? undefined : await orUnknown(runtime.pause(record.runtime_id));
      await this.change(record.id, {
        status: paused?.status === 'ERROR' ? 'ERROR' : 'PAUSED',
        status_detail:
          paused?.status === 'ERROR'
            ? paused.statusDetail
            : `paused to make room: at most ${cap} running sandboxes per user`,
      });
    }
  }

  private async view(record: SandboxRecord): Promise<Sandbox> {
    return (await this.views([record]))[0] as Sandbox;
  }

  /**
   * The rows with the runtime's view of them (one batch question), the rows caught up where they lag. With the
   * runtime out of reach, their last known status (`lastKnown`), else a 503.
   */
  private async views(records: readonly SandboxRecord[], { lastKnown = true } = {}): Promise<Sandbox[]> {
    const started = records.filter((record) => record.runtime_id !== null);
    let found: Awaited<ReturnType<Runtime['getManyBySession']>> = [];
    try {
      if (started.length > 0) found = await this.options.runtime.getManyBySession(started.map((r) => r.id));
    } catch (error) {
      if (!(error instanceof RuntimeUnavailableError) || !lastKnown) unavailable(error);
      return records.map((record) =>
        record.runtime_id === null ? sandboxOf(record, undefined) : lastKnownOf(record, error.message),
      );
    }
    const byId = new Map(found.flatMap((sandbox) => (sandbox ? [[sandbox.id, sandbox] as const] : [])));
    return Promise.all(
      records.map(async (record) => {
        const known = record.runtime_id === null ? undefined : byId.get(record.runtime_id);
        const sandbox = sandboxOf(record, known, this.options.browserUrlOf);
        const change = catchUp(record, sandbox);
        if (change) {
          await this.options.repository
            .updateUnchanged(record.id, record.updated_at, change)
            .catch((error) => this.options.log?.warn({ err: error }, 'sandbox row not caught up'));
        }
        return sandbox;
      }),
    );
  }

  /** Every status change but to RUNNING revokes the key. */
  private change(id: string, change: Parameters<SandboxesRepository['update']>[1]): Promise<void> {
    const key = change.status === 'RUNNING' ? {} : { session_api_key_hash: null };
    return this.options.repository.update(id, { ...change, ...key });
  }
}

/** What the runtime starts a sandbox of `spec` from, besides its session id. */
function startSpecOf(spec: SandboxSpec, extra: SandboxLaunch): Omit<SandboxStartSpec, 'sessionId'> {
  return {
    ...(spec.command ? { command: spec.command } : {}),
    environment: { ...spec.initialEnv, ...extra.environment },
    ...(extra.network ? { network: extra.network } : {}),
  };
}
