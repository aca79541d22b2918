import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { SandboxNotFoundError } from '../errors.ts';
import type { SweepCandidate } from '../lifecycle.ts';
import type { RuntimeSandbox } from '../runtime.ts';
import type { SandboxRecord } from '../store/sandbox-store.ts';
import { isolationOf } from './host-report.ts';
import type { Launched, LauncherOptions, LocalSpec } from './launcher.ts';
import type { SandboxLayout } from './layout.ts';

/** A sandbox the local runtime knows: its record, its key while it runs, its process. */
export interface Entry extends SandboxRecord<LocalSpec> {
  key: string | null;
  running: (Launched & { stopping: boolean }) | undefined;
}

/**
 * The runtime's sandboxes by id. Those waiting in a warm pool (`pool` set) are invisible to every caller: only
 * `waiting` and `all` see them.
 */
export class Entries {
  private readonly byId = new Map<string, Entry>();

  add(spec: LocalSpec, pool: string | null): Entry {
    const id = randomUUID().replaceAll('-', '');
    const now = new Date().toISOString();
    const entry: Entry = {
      ...{ id, spec, createdAt: now, changedAt: now, status: 'STARTING', statusDetail: null, pool },
      ...{ key: null, running: undefined },
    };
    this.byId.set(id, entry);
    return entry;
  }

  set(entry: Entry): void {
    this.byId.set(entry.id, entry);
  }

  delete(id: string): void {
    this.byId.delete(id);
  }

  has(id: string): boolean {
    return this.byId.has(id);
  }

  all(): Entry[] {
    return [...this.byId.values()];
  }

  /** A caller's sandbox (not a warm one). */
  get(id: string): Entry | undefined {
    const entry = this.byId.get(id);
    return entry?.pool === null ? entry : undefined;
  }

  /** A caller's sandbox, or SandboxNotFoundError. */
  expect(id: string): Entry {
    const entry = this.get(id);
    if (!entry) throw new SandboxNotFoundError(id);
    return entry;
  }

  claimed(): Entry[] {
    return this.all().filter((entry) => entry.pool === null);
  }

  waiting(pool: string): Entry[] {
    return this.all().filter((entry) => entry.pool === pool);
  }

  bySession(sessionId: string): Entry | undefined {
    return this.claimed().find((entry) => entry.spec.sessionId === sessionId);
  }
}

/** A sandbox as callers see it: its key and URL only while it runs; MISSING once its workspace is gone. */
export function viewOf(entry: Entry, layout: SandboxLayout, launcher: LauncherOptions): RuntimeSandbox {
  const settled = entry.status === 'PAUSED' || entry.status === 'ERROR';
  const missing = settled && !existsSync(layout.workspace);
  return {
    id: entry.id,
    sessionId: entry.spec.sessionId,
    status: missing ? 'MISSING' : entry.status,
    statusDetail: missing ? 'its workspace no longer exists' : entry.statusDetail,
    url: entry.status === 'RUNNING' ? (entry.running?.process.url ?? null) : null,
    sessionApiKey: entry.status === 'RUNNING' ? entry.key : null,
    isolation: isolationOf(entry.spec, launcher.limits, launcher.cgroups, launcher.unsafe),
    createdAt: entry.createdAt,
  };
}

/** A sandbox as the lifecycle sweep sees it. */
export function sweepCandidateOf(entry: Entry): SweepCandidate {
  const { id, status, changedAt, running } = entry;
  const key = entry.key;
  const agentActivity = async () => (running && key ? running.process.agentActivity(key) : undefined);
  return { id, status, changedAt, lastTrafficAt: running?.process.lastTrafficAt, agentActivity };
}

type Logger = { warn(message: string): void } | undefined;

/** Stops its process, if it runs, and revokes its key. */
export async function halt(entry: Entry, graceMs: number, logger: Logger): Promise<void> {
  const running = entry.running;
  entry.key = null;
  if (!running) return;
  running.stopping = true;
  await running.process.stop(graceMs);
  await release(running, logger);
  entry.running = undefined;
}

/** Closes what the runtime holds for a sandbox whose process ended: its bridges, its cgroups. */
export async function release(running: Launched, logger: Logger): Promise<void> {
  await running.process.release();
  await running.egress?.close();
  await running.cgroups?.remove().catch((error: Error) => {
    logger?.warn(`a sandbox's cgroup could not be removed: ${error.message}`);
  });
}
