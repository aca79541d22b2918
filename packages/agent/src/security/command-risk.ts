import { basename } from 'node:path';
import { programRisk } from './command-rules.ts';
import { type PathContext, changeDirectory, writeRisk } from './paths.ts';
import { type SecurityRisk, worstRisk } from './risk.ts';
import { type SimpleCommand, parseShell } from './shell-parse.ts';
import { shoutedSqlRisk } from './sql-risk.ts';

/**
 * Rates a shell command line by rules. The line is split into simple commands (pipelines, lists, substitutions,
 * `bash -c` / `eval` strings and heredocs fed to shells are rated too) and the most worrying part decides
 * (see `worstRisk`). Roughly: obviously destructive commands and writes outside the workspace are HIGH; package
 * installs, network access and deletions MEDIUM; reads, listings, searches, builds and tests LOW; a program the
 * rules do not know UNKNOWN. Arguments of `echo`/`printf` are data: `echo rm -rf /` is LOW, but piping it into a
 * shell rates the text as a script.
 */
export function commandRisk(command: string, context: Omit<PathContext, 'cwd'> & { cwd?: string }): SecurityRisk {
  return scriptRisk(command, { ...context, cwd: context.cwd ?? context.workspace });
}

const MAX_DEPTH = 5;
const RUNS_NOTHING = new Set(['then', 'do', 'else', 'fi', 'done', 'esac', '{', '}', '!', 'in']);
const WRITE_REDIRECTS = new Set(['>', '>>', '>|', '&>', '&>>', '<>']);

/** Wrappers that run the rest of their arguments as a command, with the options that take a value. */
const WRAPPERS: Record<string, { valued: string[]; elevates?: boolean; positional?: number }> = {
  sudo: { valued: ['-u', '-g', '-h', '-p', '-C', '-D', '-r', '-t', '-U', '-T'], elevates: true },
  doas: { valued: ['-u', '-C'], elevates: true },
  env: { valued: ['-u', '-C', '--unset', '--chdir'] },
  nohup: { valued: [] },
  time: { valued: ['-f', '-o'] },
  command: { valued: [] },
  builtin: { valued: [] },
  exec: { valued: ['-a'] },
  nice: { valued: ['-n', '--adjustment'] },
  ionice: { valued: ['-c', '-n'] },
  stdbuf: { valued: ['-i', '-o', '-e'] },
  timeout: { valued: ['-s', '-k', '--signal', '--kill-after'], positional: 1 },
  chronic: { valued: [] },
  unbuffer: { valued: [] },
  caffeinate: { valued: [] },
  torsocks: { valued: [] },
  proxychains: { valued: ['-f'] },
  flock: { valued: ['-w', '-E', '--timeout', '--conflict-exit-code'], positional: 1 },
  xargs: {
    valued: ['-I', '-i', '-n', '-P', '-d', '-a', '-E', '-e', '-L', '-l', '-s', '--max-args', '--max-procs'],
  },
  watch: { valued: ['-n', '--interval', '-d', '--differences'] },
};

export interface RatingContext extends PathContext {
  depth: number;
}

/** Rates a script (one or more lines). */
export function scriptRisk(script: string, context: PathContext, depth = 0): SecurityRisk {
  if (depth > MAX_DEPTH) return 'UNKNOWN';
  const risks: SecurityRisk[] = [textRisk(script)];
  const commands = parseShell(script);
  // An empty cwd means unknown (after `cd "$X"`): relative paths are then unresolved.
  let cwd = context.cwd;
  commands.forEach((command, index) => {
    const here: RatingContext = { ...context, cwd, depth };
    risks.push(simpleRisk(command, here, upstreamOf(commands, index)));
    for (const sub of command.substitutions) risks.push(scriptRisk(sub, here, depth + 1));
    const { words } = unwrap(command.words);
    const program = basename(words[0] ?? '');
    if (program === 'cd' || program === 'pushd') {
      cwd =
        changeDirectory(
          words.slice(1).find((word) => !word.startsWith('-') || word === '-'),
          here,
        ) ?? '';
    }
  });
  return worstRisk(...risks);
}

/** The commands whose output flows into `commands[index]` through pipes. */
function upstreamOf(commands: SimpleCommand[], index: number): SimpleCommand[] {
  const upstream: SimpleCommand[] = [];
  for (let i = index; i > 0 && commands[i]?.piped; i--) upstream.unshift(commands[i - 1] as SimpleCommand);
  return upstream;
}

/** Patterns that are dangerous wherever they appear in the text. */
function textRisk(script: string): SecurityRisk {
  if (/--no-preserve-root\b/.test(script)) return 'HIGH';
  // A fork bomb: `:(){ :|:& };:` and its renamed variants.
  if (/\(\)\s*\{/.test(script) && /([^\s(){}|&;]{1,64})\s*\(\)\s*\{\s*\1\s*\|\s*\1\s*&\s*\}/.test(script))
    return 'HIGH';
  return shoutedSqlRisk(script);
}

function isAssignment(word: string): boolean {
  return /^[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?\+?=/.test(word);
}

/** Removes wrappers (`sudo`, `env X=1`, `timeout 5`, `xargs -n1` ...); says whether one of them elevates. */
export function unwrap(words: string[]): { words: string[]; elevated: boolean; fromXargs: boolean } {
  let rest = [...words];
  let elevated = false;
  let fromXargs = false;
  for (let guard = 0; guard < 20; guard++) {
    while (rest.length && (RUNS_NOTHING.has(rest[0] as string) || isAssignment(rest[0] as string))) rest.shift();
    const head = rest[0];
    if (head === 'if' || head === 'elif' || head === 'while' || head === 'until') {
      rest.shift();
      continue;
    }
    const wrapper =
      head !== undefined && Object.hasOwn(WRAPPERS, basename(head)) ? WRAPPERS[basename(head)] : undefined;
    if (!wrapper || head === undefined) break;
    const name = basename(head);
    if (name === 'command' && (rest[1] === '-v' || rest[1] === '-V')) return { words: ['true'], elevated, fromXargs };
    if (wrapper.elevates) elevated = true;
    if (name === 'xargs') fromXargs = true;
    let i = 1;
    while (i < rest.length) {
      const word = rest[i] as string;
      if (word === '--') {
        i++;
        break;
      }
      if (name === 'env' && isAssignment(word)) {
        i++;
        continue;
      }
      if (!word.startsWith('-') || word === '-') break;
      i += wrapper.valued.includes(word) ? 2 : 1;
    }
    i += wrapper.positional ?? 0;
    rest = rest.slice(i);
    if (rest.length === 0) return { words: [], elevated, fromXargs };
  }
  return { words: rest, elevated, fromXargs };
}

/** Rates one simple command: its program and arguments, where its output goes, and the wrappers around it. */
export function simpleRisk(command: SimpleCommand, context: RatingContext, upstream: SimpleCommand[]): SecurityRisk {
  if (context.depth > MAX_DEPTH) return 'UNKNOWN';
  const { words, elevated, fromXargs } = unwrap(command.words);
  const risks: SecurityRisk[] = [];
  for (const redirect of command.redirects) {
    if (WRITE_REDIRECTS.has(redirect.op)) {
      risks.push(redirect.target === undefined ? 'LOW' : writeRisk(redirect.target, context));
    }
  }
  if (words.length > 0) {
    const program = words[0] as string;
    // Words read from standard input stand for paths nobody knows yet.
    const args = fromXargs ? [...words.slice(1), '$XARGS_INPUT'] : words.slice(1);
    if (/[$`]/.test(program)) {
      // The program itself is computed: running what a download printed is the classic `$(curl ...)`.
      risks.push(command.substitutions.some(runsDownloader) ? 'HIGH' : 'UNKNOWN');
    } else if (/\(\)$/.test(program)) {
      risks.push('LOW'); // a function definition; its body is rated as commands of its own
    } else {
      const deeper: RatingContext = { ...context, depth: context.depth + 1 };
      risks.push(
        programRisk(basename(program), args, {
          command,
          context,
          upstream,
          script: (text) => scriptRisk(text, context, deeper.depth),
          words: (inner) => simpleRisk({ words: inner, redirects: [], substitutions: [], piped: false }, deeper, []),
          downloads: (target) => (typeof target === 'string' ? runsDownloader(target) : commandDownloads(target)),
        }),
      );
    }
  }
  const risk = worstRisk(...risks);
  return elevated ? worstRisk(risk, 'MEDIUM') : risk;
}

/** Programs that fetch content from the network. */
export const DOWNLOADERS = new Set(['curl', 'wget', 'fetch', 'aria2c', 'http', 'https', 'xh', 'lynx', 'nc', 'ncat']);

/** Whether a script fetches something from the network (`curl`, `wget` ...) in any of its commands. */
export function runsDownloader(script: string): boolean {
  return parseShell(script).some(commandDownloads);
}

function commandDownloads(command: SimpleCommand): boolean {
  const { words } = unwrap(command.words);
  return DOWNLOADERS.has(basename(words[0] ?? '')) || command.substitutions.some(runsDownloader);
}
