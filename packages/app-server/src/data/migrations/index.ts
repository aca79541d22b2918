export { MIGRATIONS } from './list.ts';
export {
  migrate,
  pendingAppMigrations,
  requireCurrentSchema,
  SchemaBehindError,
  type MigrateOptions,
  type MigrationReport,
} from './runner.ts';
export type { Dialect, SchemaMigration } from './migration.ts';
