import { readMatcher } from '@bosun/sources';
import { claudeToolName } from './claude-tools.ts';

/**
 * Which tools a hook matcher selects, as Claude Code defines it (`readMatcher` says how a matcher reads).
 * In a list of names, a call also answers to its Claude Code tool name (`Bash` for `terminal`, `Edit` for an edit
 * by `file_editor`, see `claudeToolName`), so hooks written for Claude Code select the same calls. A regular
 * expression sees the Bosun name only (a negative one, `^(?!terminal$)`, must not let `Bash` back in).
 */
export type ToolMatcher = (toolName: string, input?: Record<string, unknown>) => boolean;

/** The matcher as a predicate; throws `SyntaxError` for an invalid regular expression. */
export function compileMatcher(matcher: string | null | undefined): ToolMatcher {
  const read = readMatcher(matcher);
  switch (read.kind) {
    case 'all':
      return () => true;
    case 'names':
      return (toolName, input) => read.names.has(toolName) || read.names.has(claudeToolName(toolName, input) ?? '');
    case 'pattern':
      return (toolName) => read.regex.test(toolName);
  }
}
