import { homedir } from 'node:os';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { type ConditionSyntax, readCondition } from '@bosun/sources';
import { parseShell } from '../security/shell-parse.ts';
import { claudeToolName, toolPath } from './claude-tools.ts';

/**
 * Whether a hook whose `if` is a rule (Claude Code's permission-rule syntax, see `readCondition`) runs for a call
 * of `toolName` with `input`; relative paths are the workspace's.
 */
export type ToolCondition = (
  toolName: string,
  input: Record<string, unknown> | undefined,
  workspace: string,
) => boolean;

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;

/** The rule as a predicate; throws `SyntaxError` for a rule that cannot be read. */
export function compileCondition(rule: string): ToolCondition {
  const condition = readCondition(rule);
  const isTool = (toolName: string, input: Record<string, unknown> | undefined) =>
    condition.tool === toolName || condition.tool === claudeToolName(toolName, input);
  switch (condition.selects) {
    case 'tool':
      return (toolName, input) => isTool(toolName, input);
    case 'command':
      return (toolName, input) =>
        isTool(toolName, input) &&
        typeof input?.command === 'string' &&
        commandLines(input.command).some((line) => condition.pattern.test(line));
    case 'path': {
      const selects = pathSelector(condition);
      return (toolName, input, workspace) => {
        const path = toolPath(input);
        return isTool(toolName, input) && path !== null && selects(path, workspace);
      };
    }
    case 'nothing':
      return () => false;
  }
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

function pathSelector(
  condition: Extract<ConditionSyntax, { selects: 'path' }>,
): (path: string, workspace: string) => boolean {
  const { root: from, glob } = condition;
  return (path, workspace) => {
    const root = from === 'filesystem' ? '/' : from === 'home' ? homedir() : workspace;
    const inside = relative(root, isAbsolute(path) ? path : resolve(workspace, path));
    if (!inside || inside === '..' || inside.startsWith(`..${sep}`) || isAbsolute(inside)) return false;
    return glob.selectsFile(inside.split(sep).join('/'));
  };
}
