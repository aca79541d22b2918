import { type ConnectedDatabase, type DatabaseLogger, connectDatabase, migrate } from '@bosun/database';
import type { SandboxStatus } from '@bosun/protocol';
import { type SealedParts, checkedKey, openParts, sealParts } from '@bosun/sealing';
import type { Kysely } from 'kysely';
import type { SandboxRecord, SandboxStore } from './sandbox-store.ts';
import { RUNTIME_SCHEMA, type RuntimeTables } from './schema.ts';

export interface DatabaseStoreOptions {
  /** `postgres://…`; absent: SQLite at `sqlitePath`. */
  url?: string;
  sqlitePath: string;
  createDatabase?: boolean;
  /** The 32-byte key sealing each record's spec. */
  key: Buffer;
  logger?: DatabaseLogger;
}

type Row = RuntimeTables['runtime_sandboxes'];

/**
 * The records in the runtime's own database, SQLite or PostgreSQL (the app's kinds; a table and schema ledger of
 * its own, so it may share a PostgreSQL database with the app). Each spec is sealed: its environment may hold
 * credentials.
 */
export class DatabaseSandboxStore<Spec extends { sessionId: string }> implements SandboxStore<Spec> {
  private constructor(
    private readonly database: ConnectedDatabase<RuntimeTables>,
    private readonly key: Buffer,
  ) {}

  static async open<Spec extends { sessionId: string }>(
    options: DatabaseStoreOptions,
  ): Promise<DatabaseSandboxStore<Spec>> {
    const key = checkedKey(options.key, 'the runtime secrets key');
    const database = await connectDatabase<RuntimeTables>(options);
    try {
      const migrating = options.logger ? { logger: options.logger } : {};
      await migrate(database.db as Kysely<unknown>, RUNTIME_SCHEMA, { dialect: database.dialect, ...migrating });
    } catch (error) {
      await database.close();
      throw error;
    }
    return new DatabaseSandboxStore<Spec>(database, key);
  }

  async load(): Promise<SandboxRecord<Spec>[]> {
    const rows = await this.database.db.selectFrom('runtime_sandboxes').selectAll().orderBy('created_at').execute();
    return rows.map((row) => this.recordOf(row));
  }

  async save(record: SandboxRecord<Spec>): Promise<void> {
    const row: Row = {
      id: record.id,
      session_id: record.spec.sessionId,
      spec_sealed: sealParts(this.key, record.id, JSON.stringify(record.spec)).join('.'),
      created_at: record.createdAt,
      changed_at: record.changedAt,
      status: record.status,
      status_detail: record.statusDetail,
      pool: record.pool,
    };
    const { id: _, created_at: __, ...changes } = row;
    await this.database.db
      .insertInto('runtime_sandboxes')
      .values(row)
      .onConflict((conflict) => conflict.column('id').doUpdateSet(changes))
      .execute();
  }

  async remove(id: string): Promise<void> {
    await this.database.db.deleteFrom('runtime_sandboxes').where('id', '=', id).execute();
  }

  close(): Promise<void> {
    return this.database.close();
  }

  /** Resolves when the database answers. */
  ping(): Promise<void> {
    return this.database.ping();
  }

  private recordOf(row: Row): SandboxRecord<Spec> {
    const spec = JSON.parse(openParts(this.key, row.id, row.spec_sealed.split('.') as SealedParts)) as Spec;
    return {
      id: row.id,
      spec,
      createdAt: row.created_at,
      changedAt: row.changed_at,
      status: row.status as SandboxStatus,
      statusDetail: row.status_detail,
      pool: row.pool,
    };
  }
}
