import {
  GitCache,
  formatProblem,
  gitProvidersFromEnv,
  marketplaceListing,
  pluginReferenceProblems,
  readMarketplace,
} from '@bosun/agent';
import type { MarketplaceListing } from '@bosun/protocol';
import type { Command } from '../command.ts';
import { type SourceOptions, authFromEnv, parseSourceOptions } from './plugin.ts';

const USAGE = `Usage: bosun marketplace inspect SOURCE [--ref REF] [--path PATH] [--json] [--cache DIR]

Fetches a marketplace with the system git, reads its marketplace.json (.claude-plugin/,
.codex-plugin/ or .plugin/) and lists its plugins, each resolved to the repository, commit
and directory it is fetched from, with every problem found. Options, provider URLs and
credentials as for 'bosun plugin inspect'. Exit status: 0 without errors, 1 with errors
(the marketplace's or an entry's), 2 for bad usage.`;

export const marketplaceCommand: Command = {
  name: 'marketplace',
  summary: 'Inspect a marketplace: its plugins, where each is fetched from, and problems',
  usage: USAGE,
  async run(args, io) {
    const [sub, ...rest] = args;
    if (sub !== 'inspect') {
      io.stderr.write(
        `bosun marketplace: ${sub ? `unknown subcommand '${sub}'` : 'no subcommand given'}\n\n${USAGE}\n`,
      );
      return 2;
    }
    let options: SourceOptions;
    try {
      options = parseSourceOptions(rest, process.env);
    } catch (error) {
      io.stderr.write(`bosun marketplace inspect: ${(error as Error).message}\n\n${USAGE}\n`);
      return 2;
    }
    const reference = { source: options.source, ref: options.ref, repo_path: options.path };
    const providers = gitProvidersFromEnv(process.env);
    const invalid = pluginReferenceProblems(reference, [], providers);
    if (invalid.length) {
      for (const p of invalid) io.stderr.write(`bosun marketplace inspect: ${p.loc.join('.')}: ${p.msg}\n`);
      return 2;
    }
    const cache = new GitCache({ dir: options.cache, providers });
    const listing = marketplaceListing(
      await readMarketplace(reference, cache, authFromEnv(options.source, process.env)),
    );
    io.stdout.write(options.json ? `${JSON.stringify(listing, null, 2)}\n` : renderListing(listing));
    const errors = [...listing.problems, ...listing.entries.flatMap((e) => e.problems)];
    return errors.some((p) => p.severity === 'error') ? 1 : 0;
  },
};

function renderListing(listing: MarketplaceListing): string {
  const lines = [
    `Marketplace ${listing.name ?? '(unnamed)'}${listing.owner ? ` by ${listing.owner}` : ''}`,
    ...(listing.description ? [`  ${listing.description}`] : []),
    `  manifest: ${listing.manifest ?? '(none)'}${listing.resolved_ref ? ` at ${listing.resolved_ref}` : ''}`,
    '',
    `Plugins (${listing.entries.length})${listing.entries.length ? ':' : ''}`,
  ];
  for (const entry of listing.entries) {
    const where = entry.source
      ? `${entry.source}${entry.ref ? ` @ ${entry.ref}` : ''}${entry.repo_path ? ` path ${entry.repo_path}` : ''}`
      : '(cannot be loaded)';
    lines.push(`  ${entry.name}${entry.version ? ` ${entry.version}` : ''}: ${where}`);
    if (entry.description) lines.push(`      ${entry.description}`);
    for (const p of entry.problems) lines.push(`      ${formatProblem(p)}`);
  }
  lines.push('', `Problems (${listing.problems.length})${listing.problems.length ? ':' : ''}`);
  for (const p of listing.problems) lines.push(`  ${formatProblem(p)}`);
  return `${lines.join('\n')}\n`;
}
