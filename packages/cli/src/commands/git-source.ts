import { homedir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import {
  type GitAuth,
  GitCache,
  gitAuthFromSecrets,
  gitProvidersFromEnv,
  pluginReferenceProblems,
  repositoryUrl,
} from '@bosun/sources';
import type { CommandIO } from '../command.ts';

/** `SOURCE [--ref] [--path] [--json] [--cache]`, shared by `plugin inspect` and `marketplace inspect`. */
export interface SourceOptions {
  source: string;
  ref: string | null;
  path: string | null;
  json: boolean;
  cache: string;
}

export function parseSourceOptions(args: string[], env: NodeJS.ProcessEnv): SourceOptions {
  const { values, positionals } = parseArgs({
    args,
    options: {
      ref: { type: 'string' },
      path: { type: 'string' },
      json: { type: 'boolean', default: false },
      cache: { type: 'string' },
    },
    allowPositionals: true,
  });
  if (positionals.length !== 1) throw new Error(positionals.length ? 'one SOURCE only' : 'no SOURCE given');
  const cacheHome = env.XDG_CACHE_HOME || join(homedir(), '.cache');
  return {
    source: positionals[0] as string,
    ref: values.ref ?? null,
    path: values.path ?? null,
    json: values.json === true,
    cache: values.cache ?? env.BOSUN_GIT_CACHE_DIR ?? join(cacheHome, 'bosun', 'git'),
  };
}

/** The credential the environment holds for `source` (the CLI's "secrets" are its environment). */
export function authFromEnv(source: string, env: NodeJS.ProcessEnv): GitAuth | undefined {
  const providers = gitProvidersFromEnv(env);
  const secrets = Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined));
  try {
    return gitAuthFromSecrets(repositoryUrl(source, providers), secrets, providers);
  } catch {
    return undefined;
  }
}

/** What `bosun <command> inspect SOURCE ...` fetches, with the cache and credential to fetch it with. */
export interface InspectTarget {
  options: SourceOptions;
  reference: { source: string; ref: string | null; repo_path: string | null };
  cache: GitCache;
  auth: GitAuth | undefined;
}

/**
 * Reads `inspect SOURCE [options]` for `command`; on bad usage (another subcommand, bad options, a source that
 * is not a repository or a path that escapes it) says why on stderr and returns the exit status 2.
 */
export function inspectTarget(command: string, args: string[], io: CommandIO, usage: string): InspectTarget | number {
  const [sub, ...rest] = args;
  if (sub !== 'inspect') {
    io.stderr.write(`bosun ${command}: ${sub ? `unknown subcommand '${sub}'` : 'no subcommand given'}\n\n${usage}\n`);
    return 2;
  }
  let options: SourceOptions;
  try {
    options = parseSourceOptions(rest, process.env);
  } catch (error) {
    io.stderr.write(`bosun ${command} inspect: ${(error as Error).message}\n\n${usage}\n`);
    return 2;
  }
  const reference = { source: options.source, ref: options.ref, repo_path: options.path };
  const providers = gitProvidersFromEnv(process.env);
  const invalid = pluginReferenceProblems(reference, [], providers);
  if (invalid.length) {
    for (const problem of invalid) {
      io.stderr.write(`bosun ${command} inspect: ${problem.loc.join('.')}: ${problem.msg}\n`);
    }
    return 2;
  }
  return {
    options,
    reference,
    cache: new GitCache({ dir: options.cache, providers }),
    auth: authFromEnv(options.source, process.env),
  };
}
