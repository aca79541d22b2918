import { mkdir } from 'node:fs/promises';
import { logStreamFor } from '@bosun/http';
import { type DestinationStream, type Logger, pino } from 'pino';
import type { AppServerConfig } from '../config.ts';
import type { LicenseTrust } from '../license/index.ts';
import { type AppServer, buildAppServer, listeningUrl } from '../server.ts';
import { appServerConfigProblems } from './config-problems.ts';
import { openDependencies } from './dependencies.ts';
import { ownerSignInOnFirstStart } from './owner-api-key.ts';
import { AppServerConfigError, ListenError, StartError } from './start-errors.ts';

export interface StartOptions {
  /** Where the structured logs go (default: standard output). */
  logStream?: { write(line: string): unknown };
  /** The configuration file the settings came from: hidden from sandboxes, like the data directory. */
  configFile?: string;
  /** Whom the license must come from (default: the issuer compiled in): for tests, never a setting. */
  licenseTrust?: LicenseTrust;
}

export interface RunningAppServer {
  server: AppServer;
  /** Where it listens (`http://host:port`). */
  url: string;
  /** What it runs on, one line each, for a person (no secret, no password). */
  description: string[];
  /**
   * On an install's first start: the owner's one-time sign-in URL, for standard output only (it is a credential:
   * never logged).
   */
  signInUrl?: string;
  /** Closes the server, then what it opened. */
  close(): Promise<void>;
}

/**
 * The app server's start-up: checks the configuration, opens what it names (the database, the cache, the
 * object store; embedded defaults in `data_dir` when it names none), builds the server and listens. What was
 * opened is closed again if a later step fails.
 */
export async function startAppServer(config: AppServerConfig, options: StartOptions = {}): Promise<RunningAppServer> {
  const problems = appServerConfigProblems(config);
  if (problems.length > 0) throw new AppServerConfigError(problems);
  await mkdir(config.data_dir, { recursive: true }).catch((error: NodeJS.ErrnoException) => {
    throw new StartError(`cannot create the data directory ${config.data_dir}: ${error.code ?? error.message}`);
  });
  const opened = await openDependencies(config, startLogger(config, options.logStream), {
    ...(options.configFile ? { configFile: options.configFile } : {}),
  });
  let server: AppServer | undefined;
  try {
    server = await buildAppServer({
      config,
      dependencies: opened.dependencies,
      keyRing: opened.keyRing,
      ...(options.logStream ? { logStream: options.logStream } : {}),
      ...(options.licenseTrust ? { licenseTrust: options.licenseTrust } : {}),
    });
    await listen(server, config);
    await server.context.services?.sandboxes.warmUp(config.sandbox_warm_pool_size);
  } catch (error) {
    await server?.close();
    await opened.close();
    throw error;
  }
  const url = listeningUrl(server.app);
  const running = server;
  const signIn = await ownerSignInOnFirstStart(opened.dependencies, opened.keyRing, server.context.publicUrl());
  return {
    server,
    url,
    description: opened.description,
    ...(signIn ? { signInUrl: signIn } : {}),
    async close() {
      try {
        await running.close();
      } finally {
        await opened.close();
      }
    },
  };
}

/** The log of what happens before the server has its own (opening the database, migrations, key rotation). */
function startLogger(config: AppServerConfig, stream: StartOptions['logStream']): Logger | undefined {
  if (config.log_level === 'silent') return undefined;
  const destination = logStreamFor(config.log_format, stream ?? process.stdout);
  return pino({ level: config.log_level }, destination as DestinationStream);
}

const LISTEN_FAILURES: Record<string, string> = {
  EADDRINUSE: 'the address is in use',
  EADDRNOTAVAIL: 'not an address of this machine',
  EACCES: 'not permitted',
  ENOTFOUND: 'unknown host',
};

async function listen(server: AppServer, { host, port }: AppServerConfig): Promise<void> {
  try {
    await server.app.listen({ host, port });
  } catch (error) {
    const reason = LISTEN_FAILURES[(error as NodeJS.ErrnoException).code ?? ''];
    if (reason) throw new ListenError(`cannot listen on ${host}:${port}: ${reason}`);
    throw error;
  }
}
