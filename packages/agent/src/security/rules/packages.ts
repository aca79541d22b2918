import { operands } from '../command-options.ts';
import type { SecurityRisk } from '../risk.ts';
import { type Rule, type RuleInput, bySubcommand, wordSet } from './rule.ts';

/**
 * Rules of package managers and build tools: installs are MEDIUM (network, install scripts), publishing is
 * HIGH, tests, builds and lints are LOW, scripts the rules cannot see into are UNKNOWN.
 */

const SCRIPT_NAMES =
  /^(test|tests|lint|build|typecheck|type-check|types|check|format|fmt|compile|coverage|e2e|unit|docs|validate)([:\-_.].*)?$/;
const NPM_VALUED = ['--prefix', '-w', '--workspace', '-C', '--dir', '--filter', '-F', '--cwd'];

function nodePackageRisk(manager: string): Rule {
  const installs = wordSet(
    'install i in ins inst isnt isntall add ci clean-install update up upgrade uninstall un unlink remove rm r link ln dedupe ddp prune rebuild rb install-test it install-ci-test cit import',
  );
  const reads = wordSet(
    'test t tst ls list ll la outdated view v info show why explain help version pack audit doctor root prefix bin fund config get search init query sbom',
  );
  return (args, input) => {
    const rest = operands(args, NPM_VALUED);
    const sub = rest[0];
    if (sub === undefined) return manager === 'yarn' ? 'MEDIUM' : 'LOW';
    if (['publish', 'unpublish', 'deprecate', 'yank'].includes(sub)) return 'HIGH';
    if (installs.has(sub)) return 'MEDIUM';
    if (reads.has(sub)) return 'LOW';
    if (['run', 'run-script', 'rum', 'urn'].includes(sub)) {
      const name = rest[1];
      return name === undefined || SCRIPT_NAMES.test(name) ? 'LOW' : 'UNKNOWN';
    }
    if (['exec', 'x', 'dlx'].includes(sub)) return npxRisk(args.slice(args.indexOf(sub) + 1), input);
    // `yarn test`, `pnpm lint`, `bun build`: a script by name.
    return manager !== 'npm' && SCRIPT_NAMES.test(sub) ? 'LOW' : 'UNKNOWN';
  };
}

function npxRisk(args: string[], input: RuleInput): SecurityRisk {
  const start = args.findIndex(
    (arg, index) => !arg.startsWith('-') && !['-p', '--package'].includes(args[index - 1] ?? ''),
  );
  return start < 0 ? 'UNKNOWN' : input.words(args.slice(start));
}

/** The words after subcommand `sub` (and its options), for `uv run X`, `poetry run X`, `bundle exec X`. */
export function runRest(args: string[], sub: string, input: RuleInput): SecurityRisk {
  const after = args.slice(args.indexOf(sub) + 1);
  const start = after.findIndex((arg) => !arg.startsWith('-'));
  return start < 0 ? 'LOW' : input.words(after.slice(start));
}

function pythonPackageRisk(manager: string): Rule {
  const installs = wordSet(
    'install uninstall remove add sync update upgrade lock download wheel inject create venv reinstall',
  );
  const reads = wordSet('list show freeze check help search info inspect env tree version --version');
  return (args, input) => {
    const rest = operands(args, ['-r', '--requirement', '-c', '--constraint', '-p', '--python', '-n', '--name']);
    const sub = rest[0];
    if (sub === undefined) return 'LOW';
    if (sub === 'pip') return PIP(args.slice(args.indexOf('pip') + 1), input);
    if (sub === 'run' || (manager === 'uv' && sub === 'tool' && rest[1] === 'run')) {
      return runRest(args, sub === 'tool' ? 'run' : sub, input);
    }
    if (sub === 'publish') return 'HIGH';
    if (installs.has(sub) || (sub === 'env' && ['create', 'remove'].includes(rest[1] ?? ''))) return 'MEDIUM';
    if (reads.has(sub)) return 'LOW';
    if (manager === 'poetry' && ['build', 'check', 'show'].includes(sub)) return 'LOW';
    return 'UNKNOWN';
  };
}
export const PIP = pythonPackageRisk('pip');

const INSTALL_WORDS = wordSet(
  'install add remove erase purge autoremove reinstall upgrade update dist-upgrade full-upgrade downgrade uninstall del delete localinstall groupinstall refresh in rm up dup tap untap link unlink services',
);
const QUERY_WORDS = wordSet(
  'search show info list policy madison depends rdepends provides whatprovides query --version help',
);

function systemPackageRisk(args: string[]): SecurityRisk {
  if (args.some((arg) => /^-(S|R|U)[a-z]*$/.test(arg))) return 'MEDIUM'; // pacman -S / -R / -U
  if (args.some((arg) => /^-(Q|Ss|Si)[a-z]*$/.test(arg))) return 'LOW';
  const sub = operands(args, ['-o', '-c', '-t'])[0];
  if (sub === undefined) return 'LOW';
  if (INSTALL_WORDS.has(sub)) return 'MEDIUM';
  if (QUERY_WORDS.has(sub)) return 'LOW';
  return 'UNKNOWN';
}

function dpkgRisk(args: string[]): SecurityRisk {
  if (args.some((arg) => /^(-[iIrPa]|--install|--remove|--purge|--configure|--unpack)$/.test(arg))) return 'MEDIUM';
  return 'LOW';
}

function rpmRisk(args: string[]): SecurityRisk {
  return args.some((arg) => /^-[iUFe][a-z]*$|^--(install|upgrade|freshen|erase)$/.test(arg)) ? 'MEDIUM' : 'LOW';
}

function makeRisk(args: string[]): SecurityRisk {
  const targets = operands(args, [
    '-C',
    '--directory',
    '-f',
    '--file',
    '--makefile',
    '-j',
    '--jobs',
    '-l',
    '-o',
    '-W',
  ]).filter((arg) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(arg));
  if (targets.length === 0) return 'LOW';
  const low =
    /^(all|test|tests|check|lint|build|format|fmt|typecheck|compile|docs|doc|help|unit|e2e|vet|coverage)([-_].*)?$/;
  if (targets.every((target) => low.test(target))) return 'LOW';
  if (
    targets.some((target) => /^(install|uninstall|deploy|publish|release|push|clean|distclean|purge)$/.test(target))
  ) {
    return 'MEDIUM';
  }
  return 'UNKNOWN';
}

const BUILD_TOOL = bySubcommand(
  {
    LOW: 'test check verify build compile package lint assemble validate format fmt doc javadoc clean spotlessCheck spotlessApply',
    MEDIUM: 'install deploy publish release restore add upload',
  },
  'UNKNOWN',
  ['-p', '-f', '--file', '-P', '-D', '-pl', '--project'],
);

export const PACKAGE_RULES: Record<string, Rule> = {
  npm: nodePackageRisk('npm'),
  pnpm: nodePackageRisk('pnpm'),
  yarn: nodePackageRisk('yarn'),
  bun: (args, input) => (args[0] === 'test' ? 'LOW' : nodePackageRisk('bun')(args, input)),
  npx: npxRisk,
  pnpx: npxRisk,
  bunx: npxRisk,
  uvx: npxRisk,
  pip: PIP,
  pip3: PIP,
  uv: pythonPackageRisk('uv'),
  poetry: pythonPackageRisk('poetry'),
  pipenv: pythonPackageRisk('pipenv'),
  pipx: pythonPackageRisk('pipx'),
  conda: pythonPackageRisk('conda'),
  mamba: pythonPackageRisk('mamba'),
  micromamba: pythonPackageRisk('micromamba'),
  apt: systemPackageRisk,
  'apt-get': systemPackageRisk,
  aptitude: systemPackageRisk,
  'apt-cache': () => 'LOW',
  yum: systemPackageRisk,
  dnf: systemPackageRisk,
  zypper: systemPackageRisk,
  apk: systemPackageRisk,
  pacman: systemPackageRisk,
  yay: systemPackageRisk,
  paru: systemPackageRisk,
  brew: systemPackageRisk,
  port: systemPackageRisk,
  snap: systemPackageRisk,
  flatpak: systemPackageRisk,
  'nix-env': systemPackageRisk,
  choco: systemPackageRisk,
  winget: systemPackageRisk,
  emerge: systemPackageRisk,
  dpkg: dpkgRisk,
  rpm: rpmRisk,
  gem: bySubcommand(
    { LOW: 'list search info env contents which', MEDIUM: 'install uninstall update', HIGH: 'push yank' },
    'UNKNOWN',
  ),
  bundle: (args, input) =>
    args[0] === 'exec'
      ? runRest(args, 'exec', input)
      : bySubcommand({ LOW: 'check list show outdated', MEDIUM: 'install update add remove' }, 'UNKNOWN')(args, input),
  composer: bySubcommand(
    { LOW: 'show validate outdated dump-autoload licenses', MEDIUM: 'install update require remove' },
    'UNKNOWN',
  ),
  cargo: bySubcommand(
    {
      LOW: 'test t check c build b clippy fmt doc d bench tree metadata search verify-project version help locate-project pkgid nextest new init',
      MEDIUM: 'install uninstall add remove rm update fetch vendor generate-lockfile clean',
      HIGH: 'publish yank owner',
    },
    'UNKNOWN',
  ),
  go: (args, input) => {
    if (args[0] === 'mod') return ['download', 'tidy', 'vendor'].includes(args[1] ?? '') ? 'MEDIUM' : 'LOW';
    return bySubcommand(
      { LOW: 'test build vet fmt version list env doc help', MEDIUM: 'get install clean work' },
      'UNKNOWN',
    )(args, input);
  },
  mvn: BUILD_TOOL,
  mvnw: BUILD_TOOL,
  gradle: BUILD_TOOL,
  gradlew: BUILD_TOOL,
  dotnet: BUILD_TOOL,
  sbt: BUILD_TOOL,
  ant: BUILD_TOOL,
  swift: BUILD_TOOL,
  flutter: BUILD_TOOL,
  dart: BUILD_TOOL,
  mix: BUILD_TOOL,
  make: makeRisk,
  gmake: makeRisk,
  just: makeRisk,
  rake: makeRisk,
  playwright: bySubcommand({ LOW: 'test show-report codegen', MEDIUM: 'install install-deps' }, 'UNKNOWN'),
  'pre-commit': bySubcommand({ LOW: 'run', MEDIUM: 'install autoupdate uninstall clean' }, 'UNKNOWN'),
};
