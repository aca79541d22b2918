import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectDatabase } from '@bosun/database';
import { sql } from 'kysely';

const POSTGRES_SERVER = 'postgres://postgres@127.0.0.1:5432';

/** Where a test keeps a runtime's records: a SQLite file in a directory of its own, or a new PostgreSQL database. */
export interface StoreTarget {
  dialect: 'sqlite' | 'postgres';
  dir: string;
  sqlitePath: string;
  url: string | undefined;
  /** Removes the directory and drops the database (ending connections still open to it). */
  cleanUp(): Promise<void>;
}

export async function storeTarget(dialect: 'sqlite' | 'postgres'): Promise<StoreTarget> {
  const dir = await mkdtemp(join(tmpdir(), 'bosun-runtime-store-'));
  const name = `bosun_runtime_test_${randomBytes(6).toString('hex')}`;
  const url = dialect === 'postgres' ? `${POSTGRES_SERVER}/${name}` : undefined;
  return {
    dialect,
    dir,
    sqlitePath: join(dir, 'runtime.db'),
    url,
    async cleanUp() {
      if (url) {
        const maintenance = await connectDatabase({ url: `${POSTGRES_SERVER}/postgres`, sqlitePath: '' });
        await sql.raw(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`).execute(maintenance.db);
        await maintenance.close();
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}
