import { compileMatcher, matcherProblem } from '@bosun/agent';
import { describe, expect, it } from 'vitest';

const TOOLS = ['terminal', 'file_editor', 'planning_file_editor', 'read_file', 'finish', 'think'];
const selected = (matcher: string | null | undefined) => TOOLS.filter(compileMatcher(matcher));

describe('hook matchers (Claude Code semantics)', () => {
  it('`*`, empty or absent select every tool', () => {
    for (const matcher of ['*', '', '  ', null, undefined]) expect(selected(matcher)).toEqual(TOOLS);
  });

  it('plain names are exact (not substrings); `|` and `,` separate a list', () => {
    expect(selected('terminal')).toEqual(['terminal']);
    expect(selected('file_editor')).toEqual(['file_editor']);
    expect(selected('terminal|file_editor')).toEqual(['terminal', 'file_editor']);
    expect(selected('terminal, read_file')).toEqual(['terminal', 'read_file']);
    expect(selected('Terminal')).toEqual([]);
  });

  it('anything else is a regular expression searched in the name (unanchored)', () => {
    expect(selected('file_.*')).toEqual(['file_editor', 'planning_file_editor']);
    expect(selected('^file_.*')).toEqual(['file_editor']);
    expect(selected('^(terminal|think)$')).toEqual(['terminal', 'think']);
    expect(selected('/^read_/')).toEqual(['read_file']);
  });

  it('an invalid regular expression is a problem (a 422 at creation)', () => {
    expect(() => compileMatcher('file_(')).toThrow(SyntaxError);
    expect(matcherProblem('file_(')).toMatch(/^Invalid matcher "file_\(":/);
    expect(matcherProblem('terminal')).toBeUndefined();
  });
});
