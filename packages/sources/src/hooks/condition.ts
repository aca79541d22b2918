import { type GlobMatcher, compileGlob, normalizeGlob } from '../shared/glob-pattern.ts';

/**
 * A hook's `if`: one rule in Claude Code's permission-rule syntax, `Tool` or `Tool(specifier)`, naming the tool
 * by its Claude Code name (`Bash`, `Read`, `Edit`, `Write`, `Grep`, `Glob`, `LS`) or its Bosun name. The hook
 * runs only for the calls the rule selects:
 * - `Bash(npm run build)` that command exactly; `*` matches anything, and a space before it keeps the word
 *   whole (`Bash(ls *)` selects `ls -la`, not `lsof`); `Bash(git commit:*)` is the older spelling of
 *   `Bash(git commit *)` (also `git commit` alone). Each command of a list or pipeline (and of `$(...)`) is
 *   tried, without its leading `VAR=value` assignments.
 * - file tools: a gitignore-style path, relative to the workspace (`docs/**`, `*.env`, `/src/*.ts` anchored at
 *   the workspace), `//abs/path/**` absolute, `~/path` in the home directory.
 * - `Tool` or `Tool(*)`: every call of the tool.
 * Reading a rule checks it; which calls it selects is the agent's to say.
 */
export type ConditionSyntax =
  | { tool: string; selects: 'tool' }
  /** A command line, each of its commands matched against `pattern`. */
  | { tool: string; selects: 'command'; pattern: RegExp }
  /** A path, relative to `root`, matched against `glob`. */
  | { tool: string; selects: 'path'; root: 'workspace' | 'filesystem' | 'home'; glob: GlobMatcher }
  /** A specifier for a tool Bosun does not have (`WebFetch(domain:...)`): no call of Bosun's is one of those. */
  | { tool: string; selects: 'nothing' };

const RULE = /^([^\s()]+)(?:\((.*)\))?$/s;
const BASH_TOOLS = new Set(['Bash', 'terminal']);
const FILE_TOOLS = new Set([
  ...['Read', 'Write', 'Edit', 'MultiEdit', 'Grep', 'Glob', 'LS'],
  ...['read_file', 'write_file', 'edit', 'file_editor', 'planning_file_editor', 'grep', 'glob', 'list_directory'],
]);

/** The rule, read; throws `SyntaxError` (or a glob's `GlobSyntaxError`) for a rule that cannot be read. */
export function readCondition(rule: string): ConditionSyntax {
  const match = RULE.exec(rule.trim());
  if (!match) throw new SyntaxError('expected Tool or Tool(specifier)');
  const tool = (match[1] as string) === 'MultiEdit' ? 'Edit' : (match[1] as string);
  const specifier = match[2]?.trim();
  if (specifier === '') throw new SyntaxError('the specifier in parentheses is empty');
  if (specifier === undefined || specifier === '*') return { tool, selects: 'tool' };
  if (BASH_TOOLS.has(tool)) return { tool, selects: 'command', pattern: bashPattern(specifier) };
  if (FILE_TOOLS.has(tool)) return { tool, selects: 'path', ...pathPattern(specifier) };
  return { tool, selects: 'nothing' };
}

/** Why `rule` is not a valid `if`, or undefined when it is. */
export function conditionProblem(rule: unknown): string | undefined {
  try {
    if (typeof rule !== 'string' || !rule.trim()) throw new SyntaxError('it is empty');
    readCondition(rule);
    return undefined;
  } catch (error) {
    return `Invalid \`if\` rule ${JSON.stringify(rule)}: ${(error as Error).message}`;
  }
}

function bashPattern(specifier: string): RegExp {
  const pattern = specifier.endsWith(':*') ? `${specifier.slice(0, -2)} *` : specifier;
  const trailing = pattern.endsWith(' *');
  const body = trailing ? pattern.slice(0, -2) : pattern;
  const source = body
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${source}${trailing ? '(?:\\s.*)?' : ''}$`, 's');
}

function pathPattern(specifier: string): { root: 'workspace' | 'filesystem' | 'home'; glob: GlobMatcher } {
  if (specifier.startsWith('//')) return { root: 'filesystem', glob: compileGlob(normalizeGlob(specifier.slice(1))) };
  if (specifier.startsWith('~/')) return { root: 'home', glob: compileGlob(normalizeGlob(specifier.slice(1))) };
  return { root: 'workspace', glob: compileGlob(normalizeGlob(specifier)) };
}
