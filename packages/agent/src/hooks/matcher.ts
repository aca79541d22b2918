import { claudeToolName } from './claude-tools.ts';

/**
 * Which tools a hook matcher selects, as Claude Code defines it: `*` or empty selects every tool; letters,
 * digits, `_`, `-` and spaces separated by `|` or `,` are exact tool names (`terminal|file_editor`); anything else
 * is a regular expression searched (unanchored) in the tool name, so `file_.*` selects `file_editor` and
 * `planning_file_editor`, and `^file_` only the first. OpenHands' explicit `/regex/` form is accepted too.
 * In a list of names, a call also answers to its Claude Code tool name (`Bash` for `terminal`, `Edit` for an edit
 * by `file_editor`, see `claudeToolName`), so hooks written for Claude Code select the same calls. A regular
 * expression sees the Bosun name only (a negative one, `^(?!terminal$)`, must not let `Bash` back in).
 */
export type ToolMatcher = (toolName: string, input?: Record<string, unknown>) => boolean;

const EXACT_LIST = /^[A-Za-z0-9_\- ,|]+$/;

/** The matcher as a predicate; throws `SyntaxError` for an invalid regular expression. */
export function compileMatcher(matcher: string | null | undefined): ToolMatcher {
  const text = (matcher ?? '').trim();
  if (text === '' || text === '*') return () => true;
  if (EXACT_LIST.test(text)) {
    const names = new Set(
      text
        .split(/[|,]/)
        .map((name) => name.trim())
        .filter(Boolean),
    );
    return (toolName, input) => names.has(toolName) || names.has(claudeToolName(toolName, input) ?? '');
  }
  const delimited = /^\/(.+)\/$/.exec(text);
  const regex = new RegExp(delimited ? (delimited[1] as string) : text);
  return (toolName) => regex.test(toolName);
}

/** Why `matcher` is not a valid matcher, or undefined when it is. */
export function matcherProblem(matcher: string | null | undefined): string | undefined {
  try {
    compileMatcher(matcher);
    return undefined;
  } catch (error) {
    return `Invalid matcher ${JSON.stringify(matcher)}: ${(error as Error).message}`;
  }
}
