import type { MarketplaceEntryContents, MarketplaceListing } from '@bosun/protocol';
import { formatProblem, inspectMarketplace, readMarketplace } from '@bosun/sources';
import type { Command } from '../command.ts';
import { authFromEnv, inspectTarget } from './git-source.ts';

const USAGE = `Usage: bosun marketplace inspect SOURCE [--ref REF] [--path PATH] [--fetch] [--json] [--cache DIR]

Fetches a marketplace with the system git, reads its marketplace.json (.claude-plugin/,
.codex-plugin/ or .plugin/) and lists its plugins, each resolved to the repository, commit
and directory it is fetched from, what it holds and every problem found, read exactly as a
conversation loads it. Plugins in other repositories are fetched and read only with --fetch.
Other options, provider URLs and credentials as for 'bosun plugin inspect'. Exit status: 0
without errors, 1 with errors (the marketplace's, an entry's or a plugin's), 2 for bad usage.`;

export const marketplaceCommand: Command = {
  name: 'marketplace',
  summary: 'Inspect a marketplace: its plugins, where each is fetched from, and problems',
  usage: USAGE,
  async run(args, io) {
    const remote = args.includes('--fetch');
    const target = inspectTarget(
      'marketplace',
      args.filter((arg) => arg !== '--fetch'),
      io,
      USAGE,
    );
    if (typeof target === 'number') return target;
    const { options } = target;
    const read = await readMarketplace(target.reference, target.cache, target.auth);
    const listing = await inspectMarketplace(read, target.cache, (source) => authFromEnv(source, process.env), {
      remote,
    });
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
    if (entry.contents) lines.push(...contentLines(entry.contents).map((line) => `      ${line}`));
    else if (entry.contents === undefined && entry.source)
      lines.push('      (not read: another repository; --fetch reads it)');
    for (const p of entry.problems) lines.push(`      ${formatProblem(p)}`);
  }
  // The count is of every problem listed: the marketplace's, here, and each plugin's, under it above.
  const all = [...listing.problems, ...listing.entries.flatMap((entry) => entry.problems)];
  const errors = all.filter((p) => p.severity === 'error').length;
  const count = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;
  lines.push('', `Problems (${all.length}): ${count(errors, 'error')}, ${count(all.length - errors, 'warning')}`);
  if (listing.problems.length) lines.push('  of the marketplace:');
  for (const p of listing.problems) lines.push(`    ${formatProblem(p)}`);
  return `${lines.join('\n')}\n`;
}

/** One line per kind of part the plugin holds (none: `holds nothing Bosun loads`). */
function contentLines(contents: MarketplaceEntryContents): string[] {
  const parts: [string, string[]][] = [
    ['skills', contents.skills],
    ['commands', contents.commands],
    ['agents', contents.agents],
    ['hooks', contents.hooks],
    ['MCP servers', contents.mcp_servers],
    ['not loaded', contents.unsupported],
  ];
  const lines = parts.filter(([, items]) => items.length).map(([label, items]) => `${label}: ${items.join(', ')}`);
  return lines.some((line) => !line.startsWith('not loaded')) ? lines : [...lines, 'holds nothing Bosun loads'];
}
