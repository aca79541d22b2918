import { StartError, createOwnerSignInUrl } from '@bosun/app-server';
import type { Command } from '../command.ts';
import { parseFlags } from './owner-flags.ts';

const USAGE = `Usage: bosun sign-in-link [--url URL] [--data-dir DIR] [--database-url URL]

Prints a fresh one-time sign-in link of the install's owner, and nothing else, on standard output: for when the link
\`bosun serve\` printed at its first start was used or lost. Open it in a browser within 24 hours; it signs in once.
It works on the install's database directly, also while the server runs. --url is where the server is reached
(default: BOSUN_PUBLIC_URL, else http://127.0.0.1:<BOSUN_PORT or 3000>); --data-dir defaults to BOSUN_DATA_DIR,
else .bosun; --database-url to BOSUN_DATABASE_URL (PostgreSQL), else the data directory's SQLite database.`;

const FLAGS = ['--url', '--data-dir', '--database-url'] as const;

export const signInLinkCommand: Command = {
  name: 'sign-in-link',
  summary: "Print a fresh one-time sign-in link of the install's owner (the printed one was used or lost)",
  usage: USAGE,
  async run(args, io) {
    if (args.includes('--help') || args.includes('-h')) {
      io.stdout.write(`${USAGE}\n`);
      return 0;
    }
    const flags = parseFlags(args, FLAGS);
    if (typeof flags === 'string') {
      io.stderr.write(`bosun sign-in-link: ${flags}\n${USAGE}\n`);
      return 2;
    }
    const publicUrl =
      flags['--url'] ?? process.env.BOSUN_PUBLIC_URL ?? `http://127.0.0.1:${process.env.BOSUN_PORT ?? '3000'}`;
    if (!/^https?:\/\/[^/]+/.test(publicUrl)) {
      io.stderr.write(`bosun sign-in-link: --url: expected an http(s) URL, got '${publicUrl}'\n`);
      return 2;
    }
    try {
      const url = await createOwnerSignInUrl({
        publicUrl,
        dataDir: flags['--data-dir'] ?? process.env.BOSUN_DATA_DIR ?? '.bosun',
        databaseUrl: flags['--database-url'] ?? process.env.BOSUN_DATABASE_URL,
      });
      io.stdout.write(`${url}\n`);
      return 0;
    } catch (error) {
      if (!(error instanceof StartError)) throw error;
      io.stderr.write(`bosun sign-in-link: ${error.message}\n`);
      return 1;
    }
  },
};
