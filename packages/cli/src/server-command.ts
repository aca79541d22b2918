import type { Static, TObject } from '@sinclair/typebox';
import type { Command, CommandIO } from './command.ts';
import { readConfig } from './config/read-config.ts';
import type { LoadedSettings } from './config/settings.ts';
import { watchStopRequests } from './until-stopped.ts';

/** A server command: its configuration read from the arguments, the environment and `--config FILE`. */
export interface ServerCommand<T extends TObject> extends Omit<Command, 'run'> {
  config: T;
  run(loaded: LoadedSettings<Static<T>>, io: CommandIO): Promise<number>;
}

/** The command that reads `config` (a usage error exits 2 with why) and then runs with the settings it loaded. */
export function serverCommand<T extends TObject>({ config, run, ...command }: ServerCommand<T>): Command {
  return {
    ...command,
    async run(args, io) {
      const release = watchStopRequests();
      try {
        const loaded = await readConfig(config, command.name, command.usage, args, io);
        return typeof loaded === 'number' ? loaded : await run(loaded, io);
      } finally {
        release();
      }
    },
  };
}
