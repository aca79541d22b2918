import type { SandboxStatus } from '@bosun/protocol';

/** What a runtime keeps of a sandbox across its own restarts: never its session key. */
export interface SandboxRecord<Spec> {
  id: string;
  /** The sandbox's spec as its backend runs it (every default applied); may hold credentials in its environment. */
  spec: Spec;
  createdAt: string;
  /** When its status last changed (long-dead sandboxes are deleted by this). */
  changedAt: string;
  status: SandboxStatus;
  statusDetail: string | null;
  /** The warm pool it waits in, unclaimed; null once claimed (or never warm). */
  pool: string | null;
}

/**
 * Where a runtime keeps its sandboxes' records: a file beside each sandbox (`FileSandboxStore`, the embedded
 * default) or the runtime's database, SQLite or PostgreSQL (`DatabaseSandboxStore`, the runtime API service's).
 * The runtime holds its sandboxes in memory and writes every change through; it reads the store once, at open.
 */
export interface SandboxStore<Spec> {
  /** Every record, oldest first. */
  load(): Promise<SandboxRecord<Spec>[]>;
  /** Saves the record, replacing the one with its id. */
  save(record: SandboxRecord<Spec>): Promise<void>;
  /** Forgets the record (nothing when there is none). */
  remove(id: string): Promise<void>;
  close(): Promise<void>;
}
