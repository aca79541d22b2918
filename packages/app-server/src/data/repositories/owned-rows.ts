import type { Kysely, Selectable } from 'kysely';
import type { Tables } from '../tables.ts';

/** The tables whose rows each belong to one user (`user_id`). */
export type OwnedTable = { [T in keyof Tables]: Tables[T] extends { user_id: string } ? T : never }[keyof Tables];

type Row<T extends OwnedTable> = Selectable<Tables[T]>;

/**
 * The statements below name only `user_id` and the key column, which Kysely cannot check on a table chosen by a
 * type parameter: they are built on this view of the database, and their rows typed back as the table's.
 */
type AnyOwnedTable = Record<string, Record<string, string>>;

/**
 * A table's rows as their owner reaches them: each by its `key` (unique among one user's rows). Another user's row
 * is as unknown as one that does not exist.
 */
export class OwnedRows<T extends OwnedTable, K extends keyof Tables[T] & string> {
  constructor(
    protected readonly db: Kysely<Tables>,
    private readonly table: T,
    private readonly key: K,
  ) {}

  async get(userId: string, key: string): Promise<Row<T> | undefined> {
    return (await this.one(userId, key).selectAll().executeTakeFirst()) as Row<T> | undefined;
  }

  /** Only `columns` of the user's row `key`. */
  async pick<C extends keyof Row<T> & string>(
    userId: string,
    key: string,
    columns: readonly C[],
  ): Promise<Pick<Row<T>, C> | undefined> {
    return (await this.one(userId, key).select(columns).executeTakeFirst()) as Pick<Row<T>, C> | undefined;
  }

  /** The user's rows among `keys` (in no particular order; unknown keys and other users' rows left out). */
  async getMany(userId: string, keys: readonly string[]): Promise<Row<T>[]> {
    if (keys.length === 0) return [];
    const rows = await this.all(userId)
      .selectAll()
      .where(this.key as string, 'in', [...keys])
      .execute();
    return rows as Row<T>[];
  }

  /** Deletes the user's row `key`; false when the user has none. */
  async delete(userId: string, key: string): Promise<boolean> {
    const result = await this.untyped
      .deleteFrom(this.table as string)
      .where('user_id', '=', userId)
      .where(this.key as string, '=', key)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  private one(userId: string, key: string) {
    return this.all(userId).where(this.key as string, '=', key);
  }

  private all(userId: string) {
    return this.untyped.selectFrom(this.table as string).where('user_id', '=', userId);
  }

  private get untyped(): Kysely<AnyOwnedTable> {
    return this.db as unknown as Kysely<AnyOwnedTable>;
  }
}
