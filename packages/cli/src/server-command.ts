import type { Static, TObject } from '@sinclair/typebox';
import type { Command, CommandIO } from './command.ts';
import { readConfig } from './config/read-config.ts';
import type { LoadedSettings } from './config/settings.ts';
import { type Refusal, startOrExplain } from './start-or-explain.ts';
import { closeWhenStopped, watchStopRequests } from './until-stopped.ts';

/**
 * A server command: its configuration read from the arguments, the environment and `--config FILE`; the server
 * started, announced, and closed when a stop is requested.
 */
export interface ServerCommand<T extends TObject, S extends { close(): Promise<void> }> extends Omit<Command, 'run'> {
  config: T;
  /** Starts the server, listening. */
  start(loaded: LoadedSettings<Static<T>>): Promise<S>;
  /** A refused start the user can act on, printed as `bosun <name>: …` lines; none: the error is thrown on. */
  explain(error: unknown): Refusal;
  /** Prints where the started server listens and what it runs on. */
  announce(server: S, loaded: LoadedSettings<Static<T>>, io: CommandIO): void | Promise<void>;
  /** How long stopping may take, and what it does first (see `closeWhenStopped`). */
  stopping: { deadlineMs: number; doing?: string };
}

/** The command that reads `config` (a usage error exits 2 with why), starts the server and runs it until stopped. */
export function serverCommand<T extends TObject, S extends { close(): Promise<void> }>({
  config,
  start,
  explain,
  announce,
  stopping,
  ...command
}: ServerCommand<T, S>): Command {
  return {
    ...command,
    async run(args, io) {
      // From before the start: a stop request while it starts, or right after it says it listens, is kept.
      const release = watchStopRequests();
      try {
        const loaded = await readConfig(config, command.name, command.usage, args, io);
        if (typeof loaded === 'number') return loaded;
        const server = await startOrExplain(io, command.name, () => start(loaded), explain);
        if (typeof server === 'number') return server;
        await announce(server, loaded, io);
        await closeWhenStopped(io, command.name, () => server.close(), stopping);
        return 0;
      } finally {
        release();
      }
    },
  };
}
