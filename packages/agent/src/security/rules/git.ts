import { hasFlag, operands, optionValue } from '../command-options.ts';
import { writeRisk } from '../paths.ts';
import type { SecurityRisk } from '../risk.ts';
import { type RuleInput, ctx, wordSet } from './rule.ts';

/** git: reads LOW, local changes LOW, discarding work MEDIUM, the network MEDIUM, rewriting or force-pushing HIGH. */

const GIT_VALUED = ['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--exec-path'];
const GIT_READS = wordSet(
  'status log diff show blame annotate rev-parse rev-list ls-files ls-tree cat-file describe shortlog grep reflog whatchanged show-ref for-each-ref name-rev merge-base help version count-objects fsck check-ignore check-attr var bisect notes difftool range-diff',
);
const GIT_LOCAL = wordSet(
  'add commit merge rebase cherry-pick revert mv init config worktree am apply format-patch sparse-checkout gc tag switch checkout stash branch restore archive maintenance',
);
const GIT_NETWORK = wordSet('clone fetch pull ls-remote submodule remote');

export function gitRisk(args: string[], input: RuleInput): SecurityRisk {
  const rest = operands(args, GIT_VALUED);
  const sub = rest[0];
  const subArgs = args.slice(args.indexOf(sub ?? '') + 1);
  const directory = optionValue(args.slice(0, args.indexOf(sub ?? '')), ['-C']);
  if (sub === undefined) return 'LOW';
  let risk: SecurityRisk;
  if (GIT_READS.has(sub)) return 'LOW';
  if (sub === 'push') risk = gitPushRisk(subArgs);
  else if (sub === 'reset') risk = hasFlag(subArgs, '', ['--hard', '--keep', '--merge']) ? 'MEDIUM' : 'LOW';
  else if (sub === 'clean' || sub === 'rm' || sub === 'prune' || sub === 'update-ref') risk = 'MEDIUM';
  else if (sub === 'filter-branch' || sub === 'filter-repo') risk = 'HIGH';
  else if (sub === 'checkout' || sub === 'switch') {
    // Discarding uncommitted changes: `checkout .`, `checkout -- file`, `-f`.
    const discards =
      subArgs.includes('--') || subArgs.includes('.') || hasFlag(subArgs, 'f', ['--force', '--discard-changes']);
    risk = discards ? 'MEDIUM' : 'LOW';
  } else if (sub === 'restore')
    risk =
      subArgs.every((arg) => arg !== '--worktree' && arg !== '-W') && hasFlag(subArgs, 'S', ['--staged'])
        ? 'LOW'
        : 'MEDIUM';
  else if (sub === 'stash') risk = ['drop', 'clear'].includes(subArgs[0] ?? '') ? 'MEDIUM' : 'LOW';
  else if (sub === 'branch' || sub === 'tag')
    risk =
      hasFlag(subArgs, 'D', []) || (subArgs.includes('-d') && hasFlag(subArgs, 'f', ['--force'])) ? 'MEDIUM' : 'LOW';
  else if (sub === 'reflog') risk = subArgs[0] === 'expire' || subArgs[0] === 'delete' ? 'MEDIUM' : 'LOW';
  else if (GIT_NETWORK.has(sub))
    risk = sub === 'remote' && !['update', 'prune'].includes(subArgs[0] ?? '') ? 'LOW' : 'MEDIUM';
  else if (GIT_LOCAL.has(sub)) risk = 'LOW';
  else return 'UNKNOWN';
  // A repository outside the workspace is someone else's.
  if (directory !== undefined && risk !== 'HIGH' && writeRisk(directory, ctx(input)) === 'HIGH') return 'HIGH';
  return risk;
}

function gitPushRisk(args: string[]): SecurityRisk {
  const forced =
    hasFlag(args, 'fd', ['--force', '--force-with-lease', '--force-if-includes', '--mirror', '--delete', '--prune']) ||
    operands(args, ['-o', '--push-option', '--repo', '--receive-pack', '--exec'])
      .slice(1)
      .some((refspec) => refspec.startsWith('+') || refspec.startsWith(':'));
  return forced ? 'HIGH' : 'MEDIUM';
}
