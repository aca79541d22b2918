import { formatProblem, marketplaceListing, readMarketplace } from '@bosun/agent';
import type { MarketplaceListing } from '@bosun/protocol';
import type { Command } from '../command.ts';
import { inspectTarget } from './git-source.ts';

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
    const target = inspectTarget('marketplace', args, io, USAGE);
    if (typeof target === 'number') return target;
    const { options } = target;
    const listing = marketplaceListing(await readMarketplace(target.reference, target.cache, target.auth));
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
