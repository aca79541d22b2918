import { AppServerConfig, DatabaseOpenError, type SchemaStepReport, migrateAppSchema } from '@bosun/app-server';
import { withoutPassword } from '@bosun/database';
import type { Command, CommandIO } from '../command.ts';
import { readConfig } from '../config/read-config.ts';
import { settingsHelp } from '../config/settings-help.ts';
import { startOrExplain } from '../start-or-explain.ts';

const USAGE = `Usage: bosun migrate [--check] [--database-url URL | --data-dir .bosun] [--config FILE] [...]

Brings the app's database schema up to date and exits (0), printing each migration it applied: the step a
deployment runs once before its app servers start (a Kubernetes Job or init container), each server then started
with --no-migrate-on-start. It reads the settings of \`bosun serve\` (the same flags, variables and file), and uses
those of the database. Several at once are safe: each migration is applied once.

  --check   Apply nothing: exit 0 when the schema is up to date, else 1, listing the pending migrations.

${settingsHelp(AppServerConfig)}`;

export const migrateCommand: Command = {
  name: 'migrate',
  summary: "Bring the app's database schema up to date (or --check it) and exit",
  usage: USAGE,
  async run(args, io) {
    const check = args.includes('--check');
    const loaded = await readConfig(
      AppServerConfig,
      'migrate',
      USAGE,
      args.filter((arg) => arg !== '--check'),
      io,
    );
    if (typeof loaded === 'number') return loaded;
    const { values: config } = loaded;
    const report = await startOrExplain(
      io,
      'migrate',
      () =>
        migrateAppSchema({
          dataDir: config.data_dir,
          createDatabase: config.create_databases && !check,
          check,
          ...(config.database_url ? { url: config.database_url } : {}),
        }),
      (error) => (error instanceof DatabaseOpenError ? { lines: [error.message], exitCode: 1 } : undefined),
    );
    if (typeof report === 'number') return report;
    const where = config.database_url ? withoutPassword(config.database_url) : `SQLite in ${config.data_dir}`;
    return check ? printCheck(report, where, io) : printApplied(report, where, io);
  },
};

function printApplied({ applied, newest }: SchemaStepReport, where: string, io: CommandIO): number {
  if (applied.length === 0) io.stdout.write(`The database schema is up to date (${newest}): ${where}\n`);
  else {
    io.stdout.write(`Applied ${applied.length} migration${plural(applied)} to ${where}:\n`);
    for (const name of applied) io.stdout.write(`  ${name}\n`);
    io.stdout.write(`The database schema is up to date (${newest})\n`);
  }
  return 0;
}

function printCheck({ pending, newest }: SchemaStepReport, where: string, io: CommandIO): number {
  if (pending.length === 0) {
    io.stdout.write(`The database schema is up to date (${newest}): ${where}\n`);
    return 0;
  }
  io.stdout.write(`${pending.length} migration${plural(pending)} pending in ${where} (run \`bosun migrate\`):\n`);
  for (const name of pending) io.stdout.write(`  ${name}\n`);
  return 1;
}

const plural = (list: unknown[]) => (list.length === 1 ? '' : 's');
