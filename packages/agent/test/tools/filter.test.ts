import { describe, expect, it } from 'vitest';
import { filterTools, toolFilterProblems } from '../../src/tools/filter.ts';
import { createToolset } from '../../src/tools/registry.ts';

describe('filter_tools_regex', () => {
  const tools = createToolset([
    { name: 'terminal', params: {} },
    { name: 'file_editor', params: {} },
    { name: 'grep', params: {} },
  ]);
  const names = (regex: string | null) => filterTools(tools, regex).map((tool) => tool.name);

  it('keeps the tools whose names match from the start, and always finish and think', () => {
    expect(names(null)).toEqual(['terminal', 'file_editor', 'grep', 'finish', 'think']);
    expect(names('file_|grep')).toEqual(['file_editor', 'grep', 'finish', 'think']);
    expect(names('editor')).toEqual(['finish', 'think']);
    expect(names('^(?!terminal)')).toEqual(['file_editor', 'grep', 'finish', 'think']);
  });

  it('reports a regex that does not compile', () => {
    expect(toolFilterProblems('(', ['agent', 'filter_tools_regex'])).toEqual([
      {
        loc: ['agent', 'filter_tools_regex'],
        msg: expect.stringMatching(/^Invalid regular expression/),
        type: 'value_error',
      },
    ]);
    expect(toolFilterProblems('a|b', [])).toEqual([]);
    expect(toolFilterProblems(null, [])).toEqual([]);
  });
});
