import { type WarmHostBase, WarmKeeperBase, servesWarm, warmSessionId } from '../warm-pools.ts';
import type { Entries, Entry } from './entry.ts';
import type { LocalSpec } from './launcher.ts';

/** What the keeper needs of the runtime: its sandboxes, and starting and removing one. */
export interface WarmHost extends WarmHostBase {
  entries: Entries;
  run(entry: Entry): Promise<void>;
  remove(entry: Entry): Promise<void>;
}

/** Keeps each warm pool full and hands its sandboxes out. */
export class WarmKeeper extends WarmKeeperBase<LocalSpec, WarmHost> {
  /**
   * A RUNNING warm sandbox whose pool's shape serves the spec (see `servesWarm`), now the caller's (its key was
   * never handed out before); its pool is topped up again in the background, after the claim is answered. The
   * caller saves it.
   */
  claim(spec: LocalSpec): Entry | undefined {
    const pool = this.pools.find(({ shape }) => servesWarm(spec, shape));
    const entry = pool && this.host.entries.waiting(pool.name).find(({ status }) => status === 'RUNNING');
    if (!entry) return undefined;
    entry.pool = null;
    entry.spec = { ...entry.spec, sessionId: spec.sessionId };
    // Handed out now: its idle time (for the lifecycle sweep) starts here, not when it was started.
    entry.changedAt = new Date().toISOString();
    // Once the claim is answered: starting the next one (spawning, preparing directories) must not delay it.
    setImmediate(() => this.refill());
    return entry;
  }

  protected async fill(): Promise<void> {
    const { entries, queues } = this.host;
    for (const pool of this.pools) {
      while (!this.host.closing() && entries.waiting(pool.name).length < pool.count) {
        const entry = entries.add(pool.shape, pool.name);
        entry.spec = { ...pool.shape, sessionId: warmSessionId(pool.name, entry.id) };
        await queues.run(entry.id, () => this.host.run(entry));
        // A pool whose shape cannot start waits for the next claim rather than trying forever.
        if (entry.status !== 'RUNNING') {
          this.host.logger?.warn(`warm pool ${pool.name}: a sandbox did not start: ${entry.statusDetail}`);
          await queues.run(entry.id, () => this.host.remove(entry));
          return;
        }
      }
    }
  }

  /** How many sandboxes are ready (RUNNING) in each pool. */
  counts(): Record<string, number> {
    const ready = (name: string) => this.host.entries.waiting(name).filter(({ status }) => status === 'RUNNING');
    return Object.fromEntries(this.pools.map(({ name }) => [name, ready(name).length]));
  }
}
