import { homedir } from 'node:os';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { parseShell } from '../security/shell-parse.ts';
import { compileGlob, normalizeGlob } from '../tools/shared/glob-pattern.ts';
import { claudeToolName, toolPath } from './claude-tools.ts';

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
 */
export type ToolCondition = (
  toolName: string,
  input: Record<string, unknown> | undefined,
  workspace: string,
) => boolean;

const RULE = /^([^\s()]+)(?:\((.*)\))?$/s;
const BASH_TOOLS = new Set(['Bash', 'terminal']);
const FILE_TOOLS = new Set([
  ...['Read', 'Write', 'Edit', 'MultiEdit', 'Grep', 'Glob', 'LS'],
  ...['read_file', 'write_file', 'edit', 'file_editor', 'planning_file_editor', 'grep', 'glob', 'list_directory'],
]);
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;

/** The rule as a predicate; throws `SyntaxError` for a rule that cannot be read. */
export function compileCondition(rule: string): ToolCondition {
  const match = RULE.exec(rule.trim());
  if (!match) throw new SyntaxError('expected Tool or Tool(specifier)');
  const tool = (match[1] as string) === 'MultiEdit' ? 'Edit' : (match[1] as string);
  const specifier = match[2]?.trim();
  if (specifier === '') throw new SyntaxError('the specifier in parentheses is empty');
  const isTool = (toolName: string, input: Record<string, unknown> | undefined) =>
    tool === toolName || tool === claudeToolName(toolName, input);
  if (specifier === undefined || specifier === '*') return (toolName, input) => isTool(toolName, input);
  if (BASH_TOOLS.has(tool)) {
    const pattern = bashPattern(specifier);
    return (toolName, input) =>
      isTool(toolName, input) &&
      typeof input?.command === 'string' &&
      commandLines(input.command).some((line) => pattern.test(line));
  }
  if (FILE_TOOLS.has(tool)) {
    const selects = pathPattern(specifier);
    return (toolName, input, workspace) => {
      const path = toolPath(input);
      return isTool(toolName, input) && path !== null && selects(path, workspace);
    };
  }
  // A specifier for a tool Bosun does not have (`WebFetch(domain:...)`): no call of Bosun's is one of those.
  return () => false;
}

/** Why `rule` is not a valid `if`, or undefined when it is. */
export function conditionProblem(rule: unknown): string | undefined {
  try {
    if (typeof rule !== 'string' || !rule.trim()) throw new SyntaxError('it is empty');
    compileCondition(rule);
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

/** Each simple command of a command line (and of its substitutions), as words without assignments. */
function commandLines(command: string, depth = 0): string[] {
  return parseShell(command).flatMap((simple) => {
    const words = [...simple.words];
    while (words.length && ASSIGNMENT.test(words[0] as string)) words.shift();
    const inner = depth < 4 ? simple.substitutions.flatMap((text) => commandLines(text, depth + 1)) : [];
    return words.length ? [words.join(' '), ...inner] : inner;
  });
}

function pathPattern(specifier: string): (path: string, workspace: string) => boolean {
  let base: ((workspace: string) => string) | null = null;
  let glob = specifier;
  if (specifier.startsWith('//')) {
    base = () => '/';
    glob = specifier.slice(1);
  } else if (specifier.startsWith('~/')) {
    base = () => homedir();
    glob = specifier.slice(1);
  }
  const matcher = compileGlob(normalizeGlob(glob));
  return (path, workspace) => {
    const root = base ? base(workspace) : workspace;
    const inside = relative(root, isAbsolute(path) ? path : resolve(workspace, path));
    if (!inside || inside === '..' || inside.startsWith(`..${sep}`) || isAbsolute(inside)) return false;
    return matcher.selectsFile(inside.split(sep).join('/'));
  };
}
