import type { SecurityRisk } from './risk.ts';
import { FILE_RULES } from './rules/files.ts';
import { PACKAGE_RULES } from './rules/packages.ts';
import { PROGRAM_RULES, cloudRisk, compilerRisk, databaseRisk, interpreterRisk, shellRisk } from './rules/programs.ts';
import type { Rule, RuleInput } from './rules/rule.ts';

export type { RuleInput } from './rules/rule.ts';

const LOW_PROGRAMS = new Set(
  (
    'ls ll la dir vdir cat tac nl head tail less more most grep egrep fgrep rg ag ack fd fdfind locate pwd echo ' +
    'printf wc sort uniq diff diff3 cmp comm stat file which whereis type whoami id groups who w users last date ' +
    'cal uptime hostname uname arch printenv tree du df free vmstat iostat ps pgrep pidof lsof top htop basename ' +
    'dirname realpath readlink sha1sum sha224sum sha256sum sha384sum sha512sum md5sum md5 shasum cksum b2sum sum ' +
    'base64 base32 xxd od hexdump strings jq yq xq cut tr paste join column fold fmt expand unexpand rev seq yes ' +
    'true false test [ [[ : sleep wait cd pushd popd dirs export set unset alias unalias history read shift local ' +
    'declare typeset readonly let hash help man info tldr apropos whatis zcat zless zgrep zdiff bzcat xzcat lzcat ' +
    'zstdcat nproc lscpu lsblk lsusb lspci locale getconf tput clear exit return logout trap ulimit umask jobs fg ' +
    'bg disown tty bat batcat exa eza lsd pstree numfmt factor bc dc expr envsubst iconv xmllint diffstat ' +
    'colordiff look code cls'
  ).split(' '),
);

/** Test runners, type checkers, linters and formatters: they read the project and report (formatters rewrite it). */
const TEST_TOOLS = new Set(
  (
    'pytest py.test tox nox jest vitest mocha ava tap karma cypress phpunit rspec ctest tsc eslint biome prettier ' +
    'ruff mypy pyright flake8 pylint black isort gofmt goimports rustfmt shellcheck hadolint yamllint markdownlint ' +
    'stylelint tslint standard xo golangci-lint staticcheck clang-format clang-tidy cppcheck ktlint swiftlint ' +
    'rubocop bandit semgrep coverage nyc c8 bats shfmt taplo actionlint codespell tsx ts-node-test vue-tsc svelte-check'
  ).split(' '),
);

const NETWORK = new Set(
  (
    'ping ping6 traceroute tracepath mtr dig nslookup host whois nc ncat netcat socat telnet ftp sftp lftp ' +
    'http https xh httpie aria2c lynx links w3m openssl nmap ssh-keyscan'
  ).split(' '),
);

const HALT = new Set(['shutdown', 'reboot', 'halt', 'poweroff', 'init', 'telinit', 'killall5']);
const DISK_TOOLS = new Set(
  'mke2fs mkswap fdisk sfdisk cfdisk parted gdisk sgdisk wipefs blkdiscard cryptsetup hdparm mknod'.split(' '),
);

const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'mksh', 'fish', 'csh', 'tcsh', 'ash', 'busybox']);
const INTERPRETERS = /^(python[0-9.]*|pypy[0-9.]*|node|nodejs|ruby|perl|php|lua|Rscript|deno)$/;
const DB_CLIENTS = new Set(
  'psql mysql mariadb sqlite3 sqlcmd mongo mongosh redis-cli clickhouse-client cqlsh duckdb sqlplus'.split(' '),
);
const CLOUD_CLIS = new Set(
  'aws gcloud gsutil az doctl s3cmd heroku vercel netlify flyctl fly gh glab hcloud linode-cli'.split(' '),
);

const RULES: Record<string, Rule> = { ...FILE_RULES, ...PACKAGE_RULES, ...PROGRAM_RULES };

/** Rates a program with its arguments. */
export function programRisk(program: string, args: string[], input: RuleInput): SecurityRisk {
  if (program.startsWith('mkfs') || DISK_TOOLS.has(program) || HALT.has(program)) return 'HIGH';
  // Own properties only: a command named `constructor` or `toString` is no rule.
  const rule = Object.hasOwn(RULES, program) ? RULES[program] : undefined;
  if (rule) return rule(args, input);
  if (LOW_PROGRAMS.has(program) || TEST_TOOLS.has(program)) return 'LOW';
  if (NETWORK.has(program)) return 'MEDIUM';
  if (SHELLS.has(program)) return shellRisk(args, input);
  if (INTERPRETERS.test(program)) return interpreterRisk(program, args, input);
  if (DB_CLIENTS.has(program)) return databaseRisk(program, args, input);
  if (CLOUD_CLIS.has(program)) return cloudRisk(args);
  if (/^(gcc|g\+\+|cc|c\+\+|clang|clang\+\+|javac|rustc|gfortran)(-[\d.]+)?$/.test(program))
    return compilerRisk(args, input);
  return 'UNKNOWN';
}
