import { parseEvent, parseToolDefinition } from '@bosun/protocol';
import { describe, expect, it } from 'vitest';
import { type Json, clone, problems, withField } from './fixtures/conformance.ts';
import { TOOL_DEFINITION_KINDS } from './fixtures/kinds.ts';
import { text } from './fixtures/supporting.ts';
import { ANNOTATION_DEFAULTS, mcpTool, toolDefinitionCases } from './fixtures/tool-definitions.ts';
import { describeUnionSuite } from './fixtures/union-suite.ts';

const { minimal, fields } = describeUnionSuite('ToolDefinition', 28);

describe('ToolDefinition annotations', () => {
  it('fills in the MCP defaults of omitted hints', () => {
    const parsed = parseToolDefinition(withField(minimal('TerminalTool'), 'annotations', {}));
    expect(parsed).toMatchObject({ annotations: ANNOTATION_DEFAULTS });
  });

  it('keeps the hints that are given', () => {
    const parsed = parseToolDefinition(withField(minimal('GlobTool'), 'annotations', { readOnlyHint: true }));
    expect(parsed).toMatchObject({ annotations: { ...ANNOTATION_DEFAULTS, readOnlyHint: true } });
  });

  it('accepts a null title', () => {
    const parsed = parseToolDefinition(withField(minimal('GlobTool'), 'annotations', { title: null }));
    expect(parsed).toMatchObject({ annotations: { title: null } });
  });

  it.each([
    [{ readOnlyHint: 'yes' }, ['annotations', 'readOnlyHint'], 'bool_type'],
    [{ dangerous: true }, ['annotations', 'dangerous'], 'extra_forbidden'],
    ['read-only', ['annotations'], 'dict_type'],
  ])('rejects annotations %j', (annotations, loc, type) => {
    expect(problems(parseToolDefinition, withField(minimal('GlobTool'), 'annotations', annotations))).toEqual([
      { loc, type },
    ]);
  });
});

describe('ToolDefinition nullable fields', () => {
  fields.itAcceptsNull(
    TOOL_DEFINITION_KINDS.flatMap((kind) =>
      ['observation_type', 'annotations', 'meta'].map((field): [string, string] => [kind, field]),
    ),
  );

  fields.itRejectsNull([
    ['TerminalTool', 'title', 'string_type'],
    ['TerminalTool', 'description', 'string_type'],
    ['TerminalTool', 'action_type', 'string_type'],
  ]);

  it('meta accepts any keys', () => {
    const meta = { anything: { nested: [1, null] } };
    expect(parseToolDefinition(withField(minimal('ThinkTool'), 'meta', meta))).toMatchObject({ meta });
  });
});

describe('MCPToolDefinition.mcp_tool', () => {
  it('keeps properties the MCP server adds (the MCP Tool shape is open)', () => {
    const tool = { ...mcpTool(), title: 'Search', outputSchema: { type: 'object' }, annotations: { x: 1 } };
    expect(parseToolDefinition(withField(minimal('MCPToolDefinition'), 'mcp_tool', tool))).toMatchObject({
      mcp_tool: tool,
    });
  });

  it.each([['name'], ['inputSchema']])('reports `missing` at [mcp_tool, %s]', (field) => {
    const { [field]: _omitted, ...tool } = mcpTool();
    expect(problems(parseToolDefinition, withField(minimal('MCPToolDefinition'), 'mcp_tool', tool))).toEqual([
      { loc: ['mcp_tool', field], type: 'missing' },
    ]);
  });

  it('rejects a string as input schema', () => {
    const tool = { ...mcpTool(), inputSchema: '{}' };
    expect(problems(parseToolDefinition, withField(minimal('MCPToolDefinition'), 'mcp_tool', tool))).toEqual([
      { loc: ['mcp_tool', 'inputSchema'], type: 'dict_type' },
    ]);
  });
});

describe('Every ToolDefinition kind inside a SystemPromptEvent', () => {
  it('accepts all 28 kinds in one tools list, in order', () => {
    const tools = toolDefinitionCases.map((c) => clone(c.maximal));
    const parsed = parseEvent({ kind: 'SystemPromptEvent', system_prompt: text(), tools: clone(tools) });
    expect((parsed as Json).tools).toEqual(tools);
  });

  it('reports a bad tool at its index', () => {
    const tools = [minimal('FinishTool'), minimal('ThinkTool'), { ...minimal('TerminalTool'), name: 'terminal' }];
    expect(problems(parseEvent, { kind: 'SystemPromptEvent', system_prompt: text(), tools })).toEqual([
      { loc: ['tools', 2, 'name'], type: 'extra_forbidden' },
    ]);
  });
});
