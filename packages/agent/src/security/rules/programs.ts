import { basename } from 'node:path';
import { hasFlag, operands, optionValue, optionValues } from '../command-options.ts';
import { deleteRisk, writeRisk } from '../paths.ts';
import { type SecurityRisk, worstRisk } from '../risk.ts';
import { sqlRisk } from '../sql-risk.ts';
import { gitRisk } from './git.ts';
import { containerRisk, infrastructureRisk } from './infrastructure.ts';
import { PIP } from './packages.ts';
import { type Rule, type RuleInput, bySubcommand, ctx, targetsRisk } from './rule.ts';

/**
 * Rules of everything else the rules know: git, network clients, shells and interpreters (what they are given
 * to run is rated as a script), database clients, cloud and container tools, system administration.
 */

function killRisk(args: string[]): SecurityRisk {
  const pids = args.filter(
    (arg, index) => /^-?\d+$/.test(arg) && !(index === 0 && arg.startsWith('-') && args.length > 1),
  );
  return pids.includes('-1') || pids.includes('1') ? 'HIGH' : 'MEDIUM';
}

function curlRisk(args: string[], input: RuleInput): SecurityRisk {
  const outputs = [
    ...optionValues(args, ['-o', '--output', '--output-dir', '--dump-header', '-D', '-c', '--cookie-jar']),
    ...args.filter((arg) => /^-o./.test(arg) && !arg.startsWith('--')).map((arg) => arg.slice(2)),
  ];
  return worstRisk('MEDIUM', ...outputs.filter((out) => out !== '-').map((out) => writeRisk(out, ctx(input))));
}

function wgetRisk(args: string[], input: RuleInput): SecurityRisk {
  const outputs = optionValues(args, ['-O', '--output-document', '-P', '--directory-prefix', '-o', '--output-file']);
  return worstRisk('MEDIUM', ...outputs.filter((out) => out !== '-').map((out) => writeRisk(out, ctx(input))));
}

function sshRisk(args: string[], input: RuleInput): SecurityRisk {
  const valued = '-p -i -l -o -F -J -L -R -D -W -b -c -e -m -O -Q -S -w -E -B -I'.split(' ');
  const [, ...remote] = operands(args, valued);
  return worstRisk('MEDIUM', remote.length ? input.script(remote.join(' ')) : 'LOW');
}

function remoteCopyRisk(args: string[], input: RuleInput): SecurityRisk {
  const paths = operands(args, ['-P', '-i', '-o', '-F', '-e', '--rsh', '-J', '-l', '--exclude', '--include']);
  const destination = paths.at(-1);
  if (destination === undefined || paths.length < 2 || /^[^/]*:/.test(destination)) return 'MEDIUM';
  const local = writeRisk(destination, ctx(input));
  const deleting = args.some((arg) => arg.startsWith('--delete') || arg === '--remove-source-files');
  return worstRisk('MEDIUM', local, deleting ? deleteRisk(destination, ctx(input), { recursive: false }) : 'LOW');
}

/** A shell: `-c` scripts and heredocs are rated as scripts; piped downloads are HIGH. */
export function shellRisk(args: string[], input: RuleInput): SecurityRisk {
  const flagAt = args.findIndex((arg) => /^-[A-Za-z]*c[A-Za-z]*$/.test(arg) && !arg.startsWith('--'));
  if (flagAt >= 0) return input.script(args[flagAt + 1] ?? '');
  const file = operands(args, ['-o', '-O', '+O'])[0];
  const readsInput = args.some((arg) => /^-[A-Za-z]*s[A-Za-z]*$/.test(arg));
  if (file !== undefined && file !== '-' && !readsInput) {
    return /^<\(/.test(file) && input.command.substitutions.some((sub) => input.downloads(sub)) ? 'HIGH' : 'UNKNOWN';
  }
  return standardInputRisk(input, true);
}

/** What a program reading code from its standard input gets: a heredoc, or the output of the pipeline. */
function standardInputRisk(input: RuleInput, isShell: boolean): SecurityRisk {
  if (input.command.stdin !== undefined) return isShell ? input.script(input.command.stdin) : 'UNKNOWN';
  if (input.upstream.some((command) => input.downloads(command))) return 'HIGH';
  const source = input.upstream.at(-1);
  if (isShell && source && ['echo', 'printf'].includes(basename(source.words[0] ?? ''))) {
    return input.script(operands(source.words.slice(1)).join(' ').replaceAll('\\n', '\n'));
  }
  return 'UNKNOWN';
}

const PYTHON_LOW_MODULES = new Set(
  'pytest unittest doctest mypy ruff black flake8 pylint isort compileall py_compile json.tool timeit pydoc tabnanny coverage pyright nox tox'.split(
    ' ',
  ),
);

export function interpreterRisk(program: string, args: string[], input: RuleInput): SecurityRisk {
  if (args.length === 0 || args[0] === '-') return standardInputRisk(input, false);
  if (
    ['--version', '-V', '--help', '-h'].includes(args[0] as string) ||
    (program.startsWith('node') && args[0] === '-v')
  ) {
    return 'LOW';
  }
  const module = optionValue(args, ['-m']);
  if (module !== undefined) {
    const rest = args.slice(args.indexOf('-m') + 2);
    if (PYTHON_LOW_MODULES.has(module)) return 'LOW';
    if (module === 'pip') return PIP(rest, input);
    if (module === 'venv' || module === 'virtualenv')
      return targetsRisk(operands(rest), (path) => writeRisk(path, ctx(input)));
    if (module === 'http.server') return 'MEDIUM';
    return 'UNKNOWN';
  }
  const code = optionValue(args, ['-c', '-e', '--eval', '-p', '--print', '-E', '-r']);
  if (code !== undefined) return codeRisk(code, input);
  if (program === 'node' && args.includes('--test')) return 'LOW';
  if (program === 'deno')
    return bySubcommand(
      { LOW: 'test lint fmt check info doc bench types', MEDIUM: 'install cache upgrade' },
      'UNKNOWN',
    )(args, input);
  return 'UNKNOWN';
}

/**
 * Code given inline to an interpreter. What it does cannot be known in general (UNKNOWN), but deleting the root
 * or the home directory, or shell commands in its strings that are HIGH, make it HIGH.
 */
function codeRisk(code: string, input: RuleInput): SecurityRisk {
  if (/(rmtree|rmSync|rmdirSync|rm_rf|rm_r|remove_dir_all|unlink)\s*\(\s*['"](\/|~|\$HOME)\/?['"]/.test(code))
    return 'HIGH';
  // Unambiguous alternatives: no catastrophic backtracking on long or unterminated strings.
  for (const match of code.matchAll(/'((?:\\.|[^'\\])*)'|"((?:\\.|[^"\\])*)"/g)) {
    const literal = (match[1] ?? match[2]) as string;
    if (/\s/.test(literal) && input.script(literal) === 'HIGH') return 'HIGH';
  }
  return 'UNKNOWN';
}

export function databaseRisk(program: string, args: string[], input: RuleInput): SecurityRisk {
  const texts = optionValues(args, ['-c', '--command', '-e', '--execute', '--eval', '-q', '--query', '-Q']);
  if (['sqlite3', 'duckdb'].includes(program)) texts.push(...operands(args, ['-cmd', '-separator']).slice(1));
  if (program === 'redis-cli') {
    const words = operands(args, ['-h', '-p', '-a', '-n', '-u', '--user', '--pass', '-s', '-r', '-i']);
    if (words.length) texts.push(words.join(' '));
  }
  if (input.command.stdin !== undefined) texts.push(input.command.stdin);
  const source = input.upstream.at(-1);
  if (source && ['echo', 'printf'].includes(basename(source.words[0] ?? '')))
    texts.push(source.words.slice(1).join(' '));
  if (texts.length === 0) return 'UNKNOWN';
  return worstRisk(...texts.map(sqlRisk));
}

export function cloudRisk(args: string[]): SecurityRisk {
  const destructive = args.some(
    (arg) =>
      /^(delete|remove|rm|rb|destroy|terminate|purge|drop)([-_].*)?$/.test(arg) ||
      arg === '--delete' ||
      arg === '--force',
  );
  return destructive ? 'HIGH' : 'MEDIUM';
}

export function compilerRisk(args: string[], input: RuleInput): SecurityRisk {
  const output = optionValue(args, ['-o', '-d']);
  return output === undefined ? 'LOW' : writeRisk(output, ctx(input));
}

function sourceRisk(_args: string[], input: RuleInput): SecurityRisk {
  return input.command.substitutions.some((sub) => input.downloads(sub)) ? 'HIGH' : 'UNKNOWN';
}

function firewallRisk(args: string[]): SecurityRisk {
  if (args.some((arg) => ['-F', '--flush', 'flush', 'reset', 'disable', '-X', '--delete-chain'].includes(arg)))
    return 'HIGH';
  if (args.some((arg) => ['-L', '-S', '--list', 'list', 'status', '--list-all', '--state'].includes(arg))) return 'LOW';
  return 'MEDIUM';
}

export const PROGRAM_RULES: Record<string, Rule> = {
  git: gitRisk,
  curl: curlRisk,
  wget: wgetRisk,
  ssh: sshRisk,
  scp: remoteCopyRisk,
  rsync: remoteCopyRisk,
  eval: (args, input) => input.script(args.join(' ')),
  source: sourceRisk,
  '.': sourceRisk,
  su: (args, input) => worstRisk('MEDIUM', input.script(optionValue(args, ['-c', '--command']) ?? '')),
  kill: killRisk,
  pkill: () => 'MEDIUM',
  killall: () => 'MEDIUM',
  systemctl: bySubcommand(
    {
      LOW: 'status show list-units list-unit-files list-timers list-sockets is-active is-enabled is-failed cat help',
      HIGH: 'poweroff reboot halt kexec emergency rescue isolate suspend hibernate',
    },
    'MEDIUM',
  ),
  service: (args) => (args[1] === 'status' || args[0] === '--status-all' ? 'LOW' : 'MEDIUM'),
  crontab: (args) => (args.includes('-r') ? 'HIGH' : args.includes('-l') ? 'LOW' : 'MEDIUM'),
  iptables: firewallRisk,
  ip6tables: firewallRisk,
  nft: firewallRisk,
  ufw: firewallRisk,
  'firewall-cmd': firewallRisk,
  userdel: () => 'HIGH',
  deluser: () => 'HIGH',
  groupdel: () => 'HIGH',
  visudo: () => 'HIGH',
  useradd: () => 'MEDIUM',
  adduser: () => 'MEDIUM',
  usermod: () => 'MEDIUM',
  groupadd: () => 'MEDIUM',
  passwd: () => 'MEDIUM',
  chpasswd: () => 'MEDIUM',
  chsh: () => 'MEDIUM',
  mount: (args) => (args.length === 0 ? 'LOW' : 'MEDIUM'),
  umount: () => 'MEDIUM',
  swapoff: () => 'MEDIUM',
  modprobe: () => 'MEDIUM',
  rmmod: () => 'MEDIUM',
  insmod: () => 'MEDIUM',
  sysctl: (args) => (hasFlag(args, 'w', ['--write']) || args.some((arg) => arg.includes('=')) ? 'MEDIUM' : 'LOW'),
  open: () => 'MEDIUM',
  'xdg-open': () => 'MEDIUM',
  docker: containerRisk,
  podman: containerRisk,
  nerdctl: containerRisk,
  'docker-compose': (args) => containerRisk(['compose', ...args]),
  kubectl: (args) =>
    ['delete', 'drain'].includes(operands(args, ['-n', '--namespace', '--context', '-f'])[0] ?? '') ? 'HIGH' : 'MEDIUM',
  oc: (args) => (['delete', 'drain'].includes(operands(args, ['-n', '--namespace'])[0] ?? '') ? 'HIGH' : 'MEDIUM'),
  helm: (args) =>
    ['uninstall', 'delete', 'del', 'un'].includes(operands(args, ['-n', '--namespace'])[0] ?? '') ? 'HIGH' : 'MEDIUM',
  terraform: infrastructureRisk,
  tofu: infrastructureRisk,
  terragrunt: infrastructureRisk,
  pulumi: infrastructureRisk,
};
