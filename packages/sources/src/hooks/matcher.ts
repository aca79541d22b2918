/**
 * A hook matcher as Claude Code reads it: `*` or empty selects every tool; letters, digits, `_`, `-` and spaces
 * separated by `|` or `,` are exact tool names (`terminal|file_editor`); anything else is a regular expression
 * searched (unanchored) in the tool name, so `file_.*` selects `file_editor` and `planning_file_editor`, and
 * `^file_` only the first. OpenHands' explicit `/regex/` form is accepted too. Which calls it selects is the
 * agent's to say (a list of names also answers to Claude Code's tool names there).
 */
export type MatcherSyntax =
  | { kind: 'all' }
  | { kind: 'names'; names: ReadonlySet<string> }
  | { kind: 'pattern'; regex: RegExp };

const EXACT_LIST = /^[A-Za-z0-9_\- ,|]+$/;

/** The matcher, read; throws `SyntaxError` for an invalid regular expression. */
export function readMatcher(matcher: string | null | undefined): MatcherSyntax {
  const text = (matcher ?? '').trim();
  if (text === '' || text === '*') return { kind: 'all' };
  if (EXACT_LIST.test(text)) {
    const names = text
      .split(/[|,]/)
      .map((name) => name.trim())
      .filter(Boolean);
    return { kind: 'names', names: new Set(names) };
  }
  const delimited = /^\/(.+)\/$/.exec(text);
  return { kind: 'pattern', regex: new RegExp(delimited ? (delimited[1] as string) : text) };
}

/** Why `matcher` is not a valid matcher, or undefined when it is. */
export function matcherProblem(matcher: string | null | undefined): string | undefined {
  try {
    readMatcher(matcher);
    return undefined;
  } catch (error) {
    return `Invalid matcher ${JSON.stringify(matcher)}: ${(error as Error).message}`;
  }
}
