import { StartError, createOwnerApiKey } from '@bosun/app-server';
import type { Command, CommandIO } from '../command.ts';
import { parseFlags } from './owner-flags.ts';

const USAGE = `Usage: bosun api-key create --data-dir DIR [--name NAME] [--expires-in DAYS] [--database-url URL]

Makes a new API key of the install's owner and prints it, and nothing else, on standard output: for scripts and
CI, without a browser. It works on the install's database directly, also while the server runs: SQLite in the
data directory, or PostgreSQL with --database-url (default: BOSUN_DATABASE_URL). --data-dir defaults to
BOSUN_DATA_DIR, else .bosun. The key is shown this once; it is stored as a SHA-256 digest.`;

const FLAGS = ['--data-dir', '--name', '--expires-in', '--database-url'] as const;

export const apiKeyCommand: Command = {
  name: 'api-key',
  summary: "Create an API key of the install's owner (printed once, for scripts and CI)",
  usage: USAGE,
  async run(args, io) {
    if (args.includes('--help') || args.includes('-h')) {
      io.stdout.write(`${USAGE}\n`);
      return 0;
    }
    const fail = (message: string) => {
      io.stderr.write(`bosun api-key: ${message}\n${args.length === 0 ? `${USAGE}\n` : ''}`);
      return 2;
    };
    const [action, ...rest] = args;
    if (action !== 'create') return fail(action ? `unknown action '${action}' (only 'create')` : 'missing action');
    const flags = parseFlags(rest, FLAGS);
    if (typeof flags === 'string') return fail(flags);
    const expiresIn = flags['--expires-in'];
    const days = expiresIn === undefined ? undefined : Number(expiresIn);
    if (days !== undefined && !(Number.isFinite(days) && days > 0 && days <= 36500)) {
      return fail(`--expires-in: expected a number of days between 0 and 36500, got '${expiresIn}'`);
    }
    return create(io, {
      dataDir: flags['--data-dir'] ?? process.env.BOSUN_DATA_DIR ?? '.bosun',
      databaseUrl: flags['--database-url'] ?? process.env.BOSUN_DATABASE_URL,
      name: flags['--name'],
      expiresInDays: days,
    });
  },
};

async function create(io: CommandIO, options: Parameters<typeof createOwnerApiKey>[0]): Promise<number> {
  try {
    io.stdout.write(`${await createOwnerApiKey(options)}\n`);
    return 0;
  } catch (error) {
    if (!(error instanceof StartError)) throw error;
    io.stderr.write(`bosun api-key: ${error.message}\n`);
    return 1;
  }
}
