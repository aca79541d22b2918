import type { ValidationError } from '@bosun/protocol';
import type { Tool } from './tool.ts';

/** Tools `filter_tools_regex` never removes: the agent could not end its run or think without them. */
const ALWAYS_KEPT = new Set(['finish', 'think']);

/** `filter_tools_regex` as a JavaScript regex matched at the start of a tool name (Python's `re.match`). */
function compile(regex: string): RegExp {
  return new RegExp(`^(?:${regex})`);
}

/** Why `filter_tools_regex` cannot be used (it is not a valid regular expression), as a 422 detail. */
export function toolFilterProblems(regex: string | null | undefined, loc: (string | number)[]): ValidationError[] {
  if (regex == null) return [];
  try {
    compile(regex);
    return [];
  } catch (error) {
    return [{ loc, msg: `Invalid regular expression: ${(error as Error).message}`, type: 'value_error' }];
  }
}

/**
 * The tools whose names `filter_tools_regex` matches (from the start of the name, as OpenHands' `re.match`),
 * built-in and MCP tools alike; `finish` and `think` always stay. No regex: every tool.
 */
export function filterTools<T extends Tool>(tools: readonly T[], regex: string | null | undefined): T[] {
  if (regex == null || regex === '') return [...tools];
  const pattern = compile(regex);
  return tools.filter((tool) => ALWAYS_KEPT.has(tool.name) || pattern.test(tool.name));
}
