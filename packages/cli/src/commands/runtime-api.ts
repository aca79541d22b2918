import { DatabaseOpenError } from '@bosun/database';
import { RuntimeApiConfig, RuntimeApiStartError, startRuntimeApi } from '@bosun/runtime';
import { settingsHelp } from '../config/settings-help.ts';
import { serverCommand } from '../server-command.ts';

/** Pausing running sandboxes takes up to their stop grace (10 s) each, in parallel. */
const SHUTDOWN_DEADLINE_MS = 20_000;

const USAGE = `Usage: bosun runtime-api [--host 127.0.0.1] [--port 5000] [--data-dir .bosun-runtime] [--config FILE] [...]

Starts the runtime API: sandboxes (each an agent server, isolated by bubblewrap) started, paused, resumed and
stopped over HTTP for the app server (its runtime_api_url), authenticated by X-API-Key: the key given in
BOSUN_RUNTIME_API_KEY or runtime_api_key_file, the same as the app's runtime_api_key. Sandboxes' records are kept in
SQLite in the data directory, or in PostgreSQL (database_url). Without bubblewrap it refuses to start unless
--unsafe-no-isolation is given. SIGTERM or SIGINT pauses the running sandboxes (workspaces kept) and stops.

${settingsHelp(RuntimeApiConfig)}`;

export const runtimeApiCommand = serverCommand({
  name: 'runtime-api',
  summary: 'Start the runtime API: isolated sandboxes over HTTP (for app servers)',
  usage: USAGE,
  config: RuntimeApiConfig,
  start: (loaded) => startRuntimeApi(loaded.values),
  explain: (error) =>
    error instanceof RuntimeApiStartError || error instanceof DatabaseOpenError
      ? { lines: [error.message], exitCode: 1 }
      : undefined,
  async announce(running, { values: config }, io) {
    const health = await running.backend.runtime.health();
    io.stdout.write(
      `Bosun runtime API listening on ${running.url} (backend ${health.backend}, data in ${config.data_dir})\n`,
    );
    io.stdout.write(
      health.isolated
        ? `  Sandboxes isolated: ${health.enforced.join('; ')}\n`
        : `  WARNING: sandboxes are NOT isolated (--unsafe-no-isolation): ${health.notEnforced.join('; ')}\n`,
    );
  },
  stopping: { deadlineMs: SHUTDOWN_DEADLINE_MS, doing: 'pausing sandboxes, ' },
});
