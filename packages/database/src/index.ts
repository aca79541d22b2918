export { type ConnectOptions, type ConnectedDatabase, connectDatabase } from './connect.ts';
export { DatabaseMissingError, DatabaseOpenError, SchemaTooNewError } from './errors.ts';
export type { DatabaseLogger } from './logger.ts';
export {
  type Dialect,
  type MigrateOptions,
  type MigrationReport,
  type Schema,
  type SchemaMigration,
  migrate,
  pendingMigrations,
} from './migrations.ts';
export { isPostgresUrl, postgresDialect, quoteIdentifier } from './postgres.ts';
export { type IndexColumns, createIdTable, createIndexes, textColumns } from './schema-builders.ts';
export { sqliteDialect } from './sqlite.ts';
export {
  SQLITE_CONSTRAINT,
  type SqliteFile,
  type SqliteStatement,
  type SqlValue,
  closeSqliteFile,
  inTransaction,
  isSqliteError,
  openSqliteFile,
} from './sqlite-file.ts';
export { withoutPassword } from './url-password.ts';
