import { AppServerConfig, AppServerConfigError, StartError, startAppServer } from '@bosun/app-server';
import { settingsHelp } from '../config/settings-help.ts';
import { serverCommand } from '../server-command.ts';
import type { Refusal } from '../start-or-explain.ts';

/** How long stopping may take: requests in flight finish, connections close, then the process exits anyway. */
const SHUTDOWN_DEADLINE_MS = 10_000;

const USAGE = `Usage: bosun serve [--host 127.0.0.1] [--port 3000] [--data-dir .bosun] [--config FILE] [...]

Starts Bosun, the application (its app server), in one process and prints where it listens. With no database,
Redis or S3 configured it runs on embedded defaults in the data directory: SQLite, an in-process cache, objects
on disk. SIGTERM or SIGINT stops it within ${SHUTDOWN_DEADLINE_MS / 1000} s (a second signal exits at once).

${settingsHelp(AppServerConfig)}`;

export const serveCommand = serverCommand({
  name: 'serve',
  summary: 'Start Bosun: the app server (users, settings, secrets, the API; the web application later)',
  usage: USAGE,
  config: AppServerConfig,
  start: (loaded) => startAppServer(loaded.values, loaded.file ? { configFile: loaded.file } : {}),
  explain: explainRefusal,
  announce(running, { values: config }, io) {
    const { url } = running;
    io.stdout.write(`Bosun app server listening on ${url} (data in ${config.data_dir})\n`);
    for (const line of running.description) io.stdout.write(`  ${line}\n`);
    if (running.signInUrl) io.stdout.write(`  First start: sign in as the owner (once) at ${running.signInUrl}\n`);
    io.stdout.write(
      `  Default model: ${config.llm_model ?? "none (each user's settings name one; or set BOSUN_LLM_MODEL)"}\n`,
    );
    const publicUrl = config.public_url?.replace(/\/+$/, '') ?? url;
    io.stdout.write(`Open ${publicUrl}/ in a browser; API documentation at ${publicUrl}/docs\n`);
  },
  stopping: { deadlineMs: SHUTDOWN_DEADLINE_MS },
});

/** Settings the app server refused (exit 2, one line a problem), or a start it could not make (exit 1). */
function explainRefusal(error: unknown): Refusal {
  if (error instanceof AppServerConfigError) return { lines: [...error.problems], exitCode: 2 };
  if (error instanceof StartError) return { lines: [error.message], exitCode: 1 };
  return undefined;
}
