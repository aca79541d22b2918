import { operands } from '../command-options.ts';
import type { PathContext } from '../paths.ts';
import { type SecurityRisk, worstRisk } from '../risk.ts';
import type { SimpleCommand } from '../shell-parse.ts';

/** What a rule may use besides the arguments of its program. */
export interface RuleInput {
  command: SimpleCommand;
  context: PathContext;
  /** The commands piping into this one. */
  upstream: SimpleCommand[];
  /** Rates a script (a `bash -c` string, a heredoc fed to a shell) in the same context. */
  script(text: string): SecurityRisk;
  /** Rates a command given as words (what `find -exec`, `uv run` or `npx` runs). */
  words(words: string[]): SecurityRisk;
  /** Whether a command or a script downloads something (curl, wget ..., also in substitutions). */
  downloads(target: SimpleCommand | string): boolean;
}

export type Rule = (args: string[], input: RuleInput) => SecurityRisk;

export const ctx = (input: RuleInput) => input.context;
/** The words of `text` (separated by single spaces), as a set: names of subcommands, programs, modules. */
export const wordSet = (text: string) => new Set(text.split(' '));
export const targetsRisk = (paths: string[], risk: (path: string) => SecurityRisk) =>
  paths.length === 0 ? 'LOW' : worstRisk(...paths.map(risk));

/** `sub` is the first operand; each set maps subcommands to a risk; anything else is `otherwise`. */
export function bySubcommand(
  table: Partial<Record<SecurityRisk, string>>,
  otherwise: SecurityRisk,
  valued: string[] = [],
): Rule {
  const sets = Object.entries(table).map(([risk, names]) => [risk as SecurityRisk, new Set(names.split(' '))] as const);
  return (args) => {
    const sub = operands(args, valued)[0];
    if (sub === undefined)
      return args.some((arg) => ['--version', '-v', '-V', '--help', '-h'].includes(arg)) ? 'LOW' : otherwise;
    for (const [risk, names] of sets) if (names.has(sub)) return risk;
    return otherwise;
  };
}
