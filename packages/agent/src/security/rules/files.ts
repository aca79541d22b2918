import { hasFlag, operands, optionValue } from '../command-options.ts';
import { deleteRisk, writeRisk } from '../paths.ts';
import { type SecurityRisk, worstRisk } from '../risk.ts';
import { type Rule, type RuleInput, ctx, targetsRisk } from './rule.ts';

/** Rules of programs that delete, move, write or unpack files: what they touch decides (see `paths.ts`). */

function removeRisk(args: string[], input: RuleInput): SecurityRisk {
  const recursive = hasFlag(args, 'rR', ['--recursive']);
  return targetsRisk(operands(args), (path) => deleteRisk(path, ctx(input), { recursive }));
}

/** Programs that write the files they are given (after the options, minus leading non-path operands). */
function writesOperands(valued: string[], skip = 0): Rule {
  return (args, input) => targetsRisk(operands(args, valued).slice(skip), (path) => writeRisk(path, ctx(input)));
}

function copyRisk(args: string[], input: RuleInput): SecurityRisk {
  const directory = optionValue(args, ['-t', '--target-directory']);
  if (directory !== undefined) return writeRisk(directory, ctx(input));
  const paths = operands(args, ['-S', '--suffix']);
  return paths.length < 2 ? 'LOW' : writeRisk(paths.at(-1) as string, ctx(input));
}

function moveRisk(args: string[], input: RuleInput): SecurityRisk {
  const directory = optionValue(args, ['-t', '--target-directory']);
  const paths = operands(args, ['-S', '--suffix', '-t', '--target-directory']);
  const destination = directory ?? paths.pop();
  // Moving a file away deletes it where it was.
  return worstRisk(
    ...paths.map((path) => deleteRisk(path, ctx(input), { recursive: true })),
    destination === undefined ? 'LOW' : writeRisk(destination, ctx(input)),
  );
}

function ddRisk(args: string[], input: RuleInput): SecurityRisk {
  const output = args.find((arg) => arg.startsWith('of='));
  return output ? writeRisk(output.slice(3), ctx(input)) : 'LOW';
}

function sedRisk(args: string[], input: RuleInput): SecurityRisk {
  if (!hasFlag(args, 'i', ['--in-place']) && !args.some((arg) => /^-[A-Za-z]*i/.test(arg))) return 'LOW';
  const scripted = optionValue(args, ['-e', '--expression', '-f', '--file']) !== undefined;
  const files = operands(args, ['-e', '--expression', '-f', '--file', '-l']).slice(scripted ? 0 : 1);
  return targetsRisk(files, (path) => writeRisk(path, ctx(input)));
}

function awkRisk(args: string[]): SecurityRisk {
  const program = operands(args, ['-F', '-v', '-f'])[0] ?? '';
  return /system\s*\(|\|\s*getline|print[^;}]*>|printf[^;}]*>/.test(program) ? 'UNKNOWN' : 'LOW';
}

function tarRisk(args: string[], input: RuleInput): SecurityRisk {
  const bundle = args[0] && !args[0].startsWith('-') ? args[0] : '';
  const short = [bundle, ...args.filter((arg) => /^-[A-Za-z]+$/.test(arg))].join('');
  const extract = /x/.test(short) || args.some((arg) => arg === '--extract' || arg === '--get');
  const create = /[cru]/.test(short) || args.some((arg) => ['--create', '--append', '--update'].includes(arg));
  if (extract) return writeRisk(optionValue(args, ['-C', '--directory']) ?? '.', ctx(input));
  if (!create) return 'LOW';
  let archive = optionValue(args, ['--file']);
  args.forEach((arg, index) => {
    if (arg === '-f' || ((index === 0 ? arg === bundle : /^-[A-Za-z]+$/.test(arg)) && arg.includes('f'))) {
      archive ??= args[index + 1];
    }
  });
  return archive === undefined || archive === '-' ? 'LOW' : writeRisk(archive, ctx(input));
}

function compressRisk(args: string[], input: RuleInput): SecurityRisk {
  if (hasFlag(args, 'ctl', ['--stdout', '--to-stdout', '--test', '--list'])) return 'LOW';
  return targetsRisk(operands(args, ['-S', '--suffix']), (path) => writeRisk(path, ctx(input)));
}

function findRisk(args: string[], input: RuleInput): SecurityRisk {
  const firstExpression = args.findIndex((arg) => arg.startsWith('-') || arg === '(' || arg === '!');
  const roots = firstExpression < 0 ? args : args.slice(0, firstExpression);
  const expression = firstExpression < 0 ? [] : args.slice(firstExpression);
  const searched = roots.length ? roots : ['.'];
  const risks: SecurityRisk[] = [];
  if (expression.includes('-delete')) {
    const filters = expression.filter(
      (arg, index) =>
        !['-delete', '-depth', '-xdev', '-mount'].includes(arg) &&
        !['-mindepth', '-maxdepth'].includes(expression[index - 1] ?? '') &&
        !['-mindepth', '-maxdepth'].includes(arg),
    );
    for (const root of searched) {
      // Everything below the root (no filter) is as much as the root; some of its entries are less.
      const whole = deleteRisk(root, ctx(input), { recursive: true });
      risks.push(filters.length === 0 ? whole : whole === 'HIGH' && !isWorkspaceArea(root, input) ? 'HIGH' : 'MEDIUM');
    }
  }
  expression.forEach((arg, index) => {
    if (!['-exec', '-execdir', '-ok', '-okdir'].includes(arg)) return;
    const end = expression.findIndex((word, at) => at > index && (word === ';' || word === '+'));
    const inner = expression.slice(index + 1, end < 0 ? undefined : end);
    for (const root of searched) {
      const match = `${root.replace(/\/+$/, '') || '/'}/__match__`;
      risks.push(input.words(inner.map((word) => word.replaceAll('{}', match))));
    }
  });
  for (const name of ['-fprint', '-fprint0', '-fprintf', '-fls']) {
    const target = optionValue(expression, [name]);
    if (target !== undefined) risks.push(writeRisk(target, ctx(input)));
  }
  return worstRisk(...risks);
}

function isWorkspaceArea(root: string, input: RuleInput): boolean {
  return writeRisk(root, ctx(input)) === 'LOW';
}

export const FILE_RULES: Record<string, Rule> = {
  rm: removeRisk,
  rmdir: (args, input) => targetsRisk(operands(args), (path) => deleteRisk(path, ctx(input), { recursive: false })),
  unlink: (args, input) => targetsRisk(operands(args), (path) => deleteRisk(path, ctx(input), { recursive: false })),
  shred: (args, input) =>
    targetsRisk(operands(args, ['-n', '-s', '--iterations', '--size']), (path) =>
      deleteRisk(path, ctx(input), { recursive: false }),
    ),
  srm: removeRisk,
  trash: removeRisk,
  'trash-put': removeRisk,
  rimraf: (args, input) => targetsRisk(operands(args), (path) => deleteRisk(path, ctx(input), { recursive: true })),
  cp: copyRisk,
  mv: moveRisk,
  ln: copyRisk,
  install: (args, input) =>
    hasFlag(args, 'd', ['--directory'])
      ? writesOperands(['-m', '-o', '-g', '--mode', '--owner', '--group'])(args, input)
      : copyRisk(args, input),
  touch: writesOperands(['-t', '-d', '-r', '--date', '--reference']),
  mkdir: writesOperands(['-m', '--mode']),
  mkfifo: writesOperands(['-m', '--mode']),
  tee: writesOperands([]),
  truncate: writesOperands(['-s', '--size', '-r', '--reference']),
  chmod: (args, input) => writesOperands([], args.some((arg) => arg.startsWith('--reference')) ? 0 : 1)(args, input),
  chown: (args, input) => writesOperands([], args.some((arg) => arg.startsWith('--reference')) ? 0 : 1)(args, input),
  chgrp: (args, input) => writesOperands([], args.some((arg) => arg.startsWith('--reference')) ? 0 : 1)(args, input),
  chattr: writesOperands([], 1),
  setfacl: writesOperands(['-m', '-x', '-M', '-X', '--modify', '--remove'], 0),
  dd: ddRisk,
  sed: sedRisk,
  gsed: sedRisk,
  awk: awkRisk,
  gawk: awkRisk,
  mawk: awkRisk,
  nawk: awkRisk,
  tar: tarRisk,
  unzip: (args, input) => writeRisk(optionValue(args, ['-d']) ?? '.', ctx(input)),
  zip: (args, input) => {
    const archive = operands(args, ['-x', '-i', '-b', '-n', '-t', '-tt'])[0];
    return archive === undefined ? 'LOW' : writeRisk(archive, ctx(input));
  },
  gzip: compressRisk,
  gunzip: compressRisk,
  bzip2: compressRisk,
  bunzip2: compressRisk,
  xz: compressRisk,
  unxz: compressRisk,
  zstd: compressRisk,
  find: findRisk,
};
