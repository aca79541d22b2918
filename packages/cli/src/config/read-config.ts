import { parseArgs } from 'node:util';
import type { Static, TObject } from '@sinclair/typebox';
import type { CommandIO } from '../command.ts';
import { flagOptions } from './settings-help.ts';
import { type LoadedSettings, SettingsError, loadSettings } from './settings.ts';

/**
 * A server command's configuration from its arguments, the environment and `--config FILE`; or, when a flag is
 * unknown or a value bad, the exit status after saying why on standard error (2, as for any usage error).
 */
export async function readConfig<T extends TObject>(
  schema: T,
  command: string,
  usage: string,
  args: string[],
  io: CommandIO,
): Promise<LoadedSettings<Static<T>> | number> {
  let flags: Record<string, string | boolean | undefined>;
  try {
    flags = parseArgs({ args, options: flagOptions(schema) }).values;
  } catch (error) {
    io.stderr.write(`bosun ${command}: ${(error as Error).message}\n\n${usage}\n`);
    return 2;
  }
  try {
    return await loadSettings(schema, { flags, env: process.env });
  } catch (error) {
    if (!(error instanceof SettingsError)) throw error;
    for (const problem of error.problems) io.stderr.write(`bosun ${command}: ${problem}\n`);
    return 2;
  }
}
