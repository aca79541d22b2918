import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { SandboxStatus } from '@bosun/protocol';
import { SerialQueues } from '@bosun/runtime';
import type { SandboxChange, SandboxRecord } from '../data/index.ts';
import type { SandboxesRepository } from '../data/repositories/sandboxes.ts';
import { agentServerCommand } from './agent-command.ts';
import { AgentProcess } from './agent-process.ts';
import type { Sandbox, SandboxPageRequest, SandboxSpec, Sandboxes } from './sandboxes.ts';
import { newSessionKey, sessionKeyHash } from './session-keys.ts';

export interface LocalSandboxesOptions {
  repository: SandboxesRepository;
  /** The app's data directory: a sandbox lives in `<dataDir>/sandboxes/<id>/` (`agent/`, `workspace/`, its log). */
  dataDir: string;
  specs: readonly SandboxSpec[];
  /** The command before `agent-server` (default: the Bosun this process runs). */
  command?: readonly string[];
  /** Running sandboxes per user; starting one more pauses the user's least recently started (0: no cap). */
  maxRunningPerUser: number;
  startTimeoutMs: number;
  /** How long a stopping sandbox has before SIGKILL. */
  stopGraceMs: number;
  /** More environment for every sandbox, read at each start (where to post webhooks: known once the app listens). */
  environment?: () => Record<string, string>;
  /** Told each time a sandbox becomes RUNNING (started or resumed). */
  onRunning?: (sandbox: Sandbox) => void;
}

interface Running {
  process: AgentProcess;
  key: string;
  stopping: boolean;
}

const LIVE: SandboxStatus[] = ['STARTING', 'RUNNING'];
const RESTARTED = 'the app server restarted (it holds no key of the sandbox): resume it to start it again';

/**
 * Sandboxes as local child processes (see AgentProcess), their records in the database. The plain session keys
 * live only here, in memory: after a restart of the app, the sandboxes it had running (stopped with it, see
 * parent-watch.ts) are PAUSED, and resuming one starts it with a new key.
 */
export class LocalSandboxes implements Sandboxes {
  private readonly running = new Map<string, Running>();
  private readonly queues = new SerialQueues();
  private closing = false;

  private constructor(private readonly options: LocalSandboxesOptions) {}

  /** The service, once what the previous run of the app left running is PAUSED. */
  static async open(options: LocalSandboxesOptions): Promise<LocalSandboxes> {
    await options.repository.settleAll(LIVE, 'PAUSED', RESTARTED);
    return new LocalSandboxes(options);
  }

  async start(spec: SandboxSpec, ownerId: string, options: { id?: string } = {}): Promise<Sandbox> {
    const id = options.id ?? randomUUID().replaceAll('-', '');
    await this.options.repository.create({ id, userId: ownerId, specId: spec.id, status: 'STARTING' });
    return this.queues.run(id, async () => {
      await this.makeRoom(ownerId, id);
      await this.launch(id, spec);
      return this.launched(ownerId, id);
    });
  }

  pause(ownerId: string, id: string): Promise<Sandbox | undefined> {
    return this.queues.run(id, async () => {
      const record = await this.options.repository.get(ownerId, id);
      if (!record) return undefined;
      await this.stop(id);
      if (LIVE.includes(record.status as SandboxStatus)) await this.change(id, { status: 'PAUSED' });
      return this.sandboxOf(await this.record(ownerId, id));
    });
  }

  resume(ownerId: string, id: string): Promise<Sandbox | undefined> {
    return this.queues.run(id, async () => {
      const record = await this.options.repository.get(ownerId, id);
      if (!record || this.running.has(id)) return record && this.sandboxOf(record);
      if (!existsSync(this.workspaceOf(id))) return this.sandboxOf(record);
      const spec = this.options.specs.find((candidate) => candidate.id === record.spec_id);
      if (!spec) {
        await this.change(id, { status: 'ERROR', status_detail: `its spec ${record.spec_id} no longer exists` });
      } else {
        await this.makeRoom(ownerId, id);
        await this.launch(id, spec);
      }
      return this.launched(ownerId, id);
    });
  }

  delete(ownerId: string, id: string): Promise<boolean> {
    return this.queues.run(id, async () => {
      if (!(await this.options.repository.get(ownerId, id))) return false;
      await this.stop(id);
      await rm(this.directoryOf(id), { recursive: true, force: true });
      return this.options.repository.delete(ownerId, id);
    });
  }

  async get(ownerId: string, id: string): Promise<Sandbox | undefined> {
    const record = await this.options.repository.get(ownerId, id);
    return record && this.sandboxOf(record);
  }

  async getMany(ownerId: string, ids: readonly string[]): Promise<(Sandbox | undefined)[]> {
    const records = new Map((await this.options.repository.getMany(ownerId, ids)).map((row) => [row.id, row]));
    return ids.map((id) => {
      const record = records.get(id);
      return record && this.sandboxOf(record);
    });
  }

  async search(ownerId: string, page: SandboxPageRequest) {
    const found = await this.options.repository.page(ownerId, page);
    return { items: found.items.map((record) => this.sandboxOf(record)), next_page_id: found.next_page_id };
  }

  async bySessionKey(key: string): Promise<Sandbox | undefined> {
    const record = await this.options.repository.getBySessionKeyHash(sessionKeyHash(key));
    return record && this.running.get(record.id)?.key === key ? this.sandboxOf(record) : undefined;
  }

  async close(): Promise<void> {
    this.closing = true;
    // A start under way finishes first (its process is then stopped with the others, not left behind).
    await this.queues.idle();
    await Promise.all(
      [...this.running.keys()].map((id) =>
        this.queues.run(id, async () => {
          await this.stop(id);
          await this.change(id, { status: 'PAUSED', status_detail: 'the app server stopped' });
        }),
      ),
    );
  }

  /** Starts its agent server with a new key: RUNNING, or ERROR with why not. */
  private async launch(id: string, spec: SandboxSpec): Promise<void> {
    if (this.closing) {
      await this.change(id, { status: 'PAUSED', status_detail: 'the app server is stopping' });
      return;
    }
    const directory = this.directoryOf(id);
    const dataDir = join(directory, 'agent');
    await mkdir(dataDir, { recursive: true });
    await mkdir(this.workspaceOf(id), { recursive: true });
    await this.change(id, { status: 'STARTING', status_detail: null, session_api_key_hash: null });
    const key = newSessionKey();
    let process: AgentProcess;
    try {
      process = await AgentProcess.start({
        command: agentServerCommand(spec.command ?? this.options.command),
        dataDir,
        workspace: this.workspaceOf(id),
        logFile: join(directory, 'agent-server.log'),
        sessionKey: key,
        env: { ...spec.initialEnv, ...this.options.environment?.() },
        startTimeoutMs: this.options.startTimeoutMs,
      });
    } catch (error) {
      await this.change(id, { status: 'ERROR', status_detail: (error as Error).message });
      return;
    }
    const running: Running = { process, key, stopping: false };
    this.running.set(id, running);
    await this.change(id, { status: 'RUNNING', session_api_key_hash: sessionKeyHash(key), started_at: now() });
    void process.exited.then(async (reason) => {
      if (running.stopping) return;
      this.running.delete(id);
      await this.change(id, { status: 'ERROR', status_detail: `its agent server ${reason}` }).catch(() => {});
    });
  }

  /** The sandbox after a start or resume; whoever listens is told when it runs. */
  private async launched(ownerId: string, id: string): Promise<Sandbox> {
    const sandbox = this.sandboxOf(await this.record(ownerId, id));
    if (sandbox.status === 'RUNNING') this.options.onRunning?.(sandbox);
    return sandbox;
  }

  private async stop(id: string): Promise<void> {
    const running = this.running.get(id);
    if (!running) return;
    running.stopping = true;
    await running.process.stop(this.options.stopGraceMs);
    this.running.delete(id);
  }

  /** Pauses the owner's least recently started sandboxes until one more may run. */
  private async makeRoom(ownerId: string, startingId: string): Promise<void> {
    const { maxRunningPerUser: cap, repository } = this.options;
    if (cap <= 0) return;
    const live = (await repository.withStatus(ownerId, LIVE)).filter((record) => record.id !== startingId);
    // Not through the other sandbox's queue: two starts of one user would wait on each other.
    for (const record of live.slice(0, Math.max(0, live.length - cap + 1))) {
      await this.stop(record.id);
      await this.change(record.id, {
        status: 'PAUSED',
        status_detail: `paused to make room: at most ${cap} running sandboxes per user`,
      });
    }
  }

  /** Every status change revokes the key, except to RUNNING with its new one. */
  private change(id: string, change: SandboxChange): Promise<void> {
    const key = change.status === 'RUNNING' ? {} : { session_api_key_hash: null };
    const detail = change.status_detail === undefined ? { status_detail: null } : {};
    return this.options.repository.update(id, { ...detail, ...change, ...key });
  }

  private async record(ownerId: string, id: string): Promise<SandboxRecord> {
    const record = await this.options.repository.get(ownerId, id);
    if (!record) throw new Error(`sandbox ${id} vanished`);
    return record;
  }

  private sandboxOf(record: SandboxRecord): Sandbox {
    const running = record.status === 'RUNNING' ? this.running.get(record.id) : undefined;
    const stored = record.status as SandboxStatus;
    const missing = (stored === 'PAUSED' || stored === 'ERROR') && !existsSync(this.workspaceOf(record.id));
    return {
      id: record.id,
      ownerId: record.user_id,
      specId: record.spec_id,
      status: missing ? 'MISSING' : stored,
      statusDetail: missing ? 'its workspace no longer exists' : record.status_detail,
      sessionApiKey: running?.key ?? null,
      agentServerUrl: running?.process.url ?? null,
      createdAt: record.created_at,
    };
  }

  /** Absolute: the agent server runs in its workspace, where a relative data directory would mean another place. */
  private directoryOf(id: string): string {
    return resolve(this.options.dataDir, 'sandboxes', id);
  }

  private workspaceOf(id: string): string {
    return join(this.directoryOf(id), 'workspace');
  }
}

const now = () => new Date().toISOString();
