import { compileMatcher } from '@bosun/agent';
import { describe, expect, it } from 'vitest';

const TOOLS = ['terminal', 'file_editor', 'planning_file_editor', 'read_file', 'finish', 'think'];
const selected = (matcher: string | null | undefined) => {
  const matches = compileMatcher(matcher);
  return TOOLS.filter((tool) => matches(tool));
};

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

  it("Claude Code's tool names select the Bosun tools that do the same job", () => {
    expect(selected('Bash')).toEqual(['terminal']);
    expect(selected('Read')).toEqual(['read_file']);
    expect(selected('Bash|Read')).toEqual(['terminal', 'read_file']);
    const edits = compileMatcher('Edit|Write');
    expect(edits('file_editor', { command: 'create' })).toBe(true);
    expect(edits('file_editor', { command: 'str_replace' })).toBe(true);
    expect(edits('file_editor', { command: 'view' })).toBe(false);
    expect(edits('write_file', {})).toBe(true);
    expect(selected('^(?!terminal$)')).not.toContain('terminal');
  });

  it('an invalid regular expression cannot be compiled', () => {
    expect(() => compileMatcher('file_(')).toThrow(SyntaxError);
  });
});
