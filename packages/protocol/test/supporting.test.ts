import {
  CriticResult,
  HTTPValidationError,
  ImageContent,
  Message,
  MessageToolCall,
  ReasoningItemModel,
  RedactedThinkingBlock,
  SecurityRisk,
  TextContent,
  ThinkingBlock,
  ValidationError,
  parse,
  safeParse,
} from '@bosun/protocol';
import type { TSchema } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import {
  type Json,
  type Parser,
  type Problem,
  clone,
  describeShapes,
  minimalOf,
  problems,
  sorted,
} from './fixtures/conformance.ts';
import { fieldTables } from './fixtures/field-tables.ts';
import { SUPPORTING_SHAPES } from './fixtures/kinds.ts';
import { SECURITY_RISKS, supportingCases, text, toolCall } from './fixtures/supporting.ts';

const SCHEMAS: Record<string, TSchema> = {
  TextContent,
  ImageContent,
  ThinkingBlock,
  RedactedThinkingBlock,
  ReasoningItemModel,
  MessageToolCall,
  SecurityRisk,
  CriticResult,
  Message,
  HTTPValidationError,
  ValidationError,
};

const parserOf =
  (name: string): Parser =>
  (value) =>
    parse(SCHEMAS[name] as TSchema, value);

const minimal = (name: string): Json => minimalOf(supportingCases, name);
const fields = fieldTables(parserOf, minimal);

describe('Supporting shape fixtures', () => {
  it('cover every supporting shape of the spec (SecurityRisk is an enum, tested below)', () => {
    expect(sorted(Object.keys(SCHEMAS))).toEqual(sorted(SUPPORTING_SHAPES));
    expect(sorted(supportingCases.map((c) => c.name))).toEqual(
      sorted(SUPPORTING_SHAPES.filter((s) => s !== 'SecurityRisk')),
    );
  });
});

describeShapes('Supporting shapes', supportingCases, { parserOf }, false);

describe('SecurityRisk', () => {
  it.each(SECURITY_RISKS.map((risk) => [risk]))('accepts %s', (risk) => {
    expect(parse(SecurityRisk, risk)).toBe(risk);
  });

  it.each([['unknown'], ['CRITICAL'], ['']])('rejects %j (enum)', (risk) => {
    expect(problems(parserOf('SecurityRisk'), risk)).toEqual([{ loc: [], type: 'enum' }]);
  });

  it('rejects a number', () => {
    expect(problems(parserOf('SecurityRisk'), 2)).toContainEqual({ loc: [], type: 'string_type' });
  });
});

describe('Supporting shape limits', () => {
  it.each([[0], [1], [0.5], [0.999]])('CriticResult accepts score %j', (score) => {
    expect(parse(CriticResult, { score, message: null })).toEqual({ score, message: null });
  });

  it.each([
    [-0.01, 'greater_than_equal'],
    [-1, 'greater_than_equal'],
    [1.01, 'less_than_equal'],
    [100, 'less_than_equal'],
    ['0.5', 'float_type'],
  ])('CriticResult rejects score %j (%s)', (score, type) => {
    expect(problems(parserOf('CriticResult'), { score, message: null })).toEqual([{ loc: ['score'], type }]);
  });
});

describe('Supporting shape defaults', () => {
  fields.itDefaults([
    ['TextContent', 'type', 'text'],
    ['TextContent', 'cache_prompt', false],
    ['ImageContent', 'type', 'image'],
    ['ImageContent', 'cache_prompt', false],
    ['ThinkingBlock', 'type', 'thinking'],
    ['RedactedThinkingBlock', 'type', 'redacted_thinking'],
  ]);

  it('{"text": "x"} parses to a TextContent with its defaults', () => {
    expect(parse(TextContent, { text: 'x' })).toEqual({ type: 'text', text: 'x', cache_prompt: false });
  });
});

describe('Content blocks: `type` may be omitted', () => {
  it('in Message.content, {"text"} is a TextContent and {"image_urls"} an ImageContent', () => {
    const parsed = parse(Message, { role: 'user', content: [{ text: 'x' }, { image_urls: ['https://x.org/a.png'] }] });
    expect(parsed.content).toEqual([
      { type: 'text', text: 'x', cache_prompt: false },
      { type: 'image', image_urls: ['https://x.org/a.png'], cache_prompt: false },
    ]);
  });

  it('an explicit type selects the shape and keeps cache_prompt', () => {
    const content = [
      { type: 'image', image_urls: [], cache_prompt: true },
      { type: 'text', text: '', cache_prompt: true },
    ];
    expect(parse(Message, { role: 'user', content: clone(content) }).content).toEqual(content);
  });

  it('in Message.thinking_blocks, {"thinking"} is a ThinkingBlock and {"data"} a RedactedThinkingBlock', () => {
    const parsed = parse(Message, { role: 'assistant', thinking_blocks: [{ thinking: 't' }, { data: 'd' }] });
    expect(parsed.thinking_blocks).toEqual([
      { type: 'thinking', thinking: 't' },
      { type: 'redacted_thinking', data: 'd' },
    ]);
  });

  it.each([
    ['an image block without image_urls', { type: 'image' }, [{ loc: ['content', 0, 'image_urls'], type: 'missing' }]],
    ['a block with neither text nor type', {}, [{ loc: ['content', 0, 'text'], type: 'missing' }]],
    [
      'a text block with image_urls',
      { type: 'text', text: 'x', image_urls: [] },
      [{ loc: ['content', 0, 'image_urls'], type: 'extra_forbidden' }],
    ],
  ] as [string, Json, Problem[]][])('rejects %s', (_name, block, expected) => {
    expect(problems(parserOf('Message'), { role: 'user', content: [block] })).toEqual(expected);
  });
});

describe('Supporting shape enums and types', () => {
  it.each([['user'], ['system'], ['assistant'], ['tool']])('Message accepts role %s', (role) => {
    expect(parse(Message, { role })).toMatchObject({ role });
  });

  it.each([['completion'], ['responses']])('MessageToolCall accepts origin %s', (origin) => {
    expect(parse(MessageToolCall, { ...toolCall(), origin })).toMatchObject({ origin });
  });

  const cases: [string, string, unknown, Problem[]][] = [
    ['Message', 'an unknown role', { role: 'bot' }, [{ loc: ['role'], type: 'enum' }]],
    [
      'Message',
      'a tool call with an unknown origin',
      { role: 'assistant', tool_calls: [{ ...toolCall(), origin: 'chat' }] },
      [{ loc: ['tool_calls', 0, 'origin'], type: 'enum' }],
    ],
    [
      'Message',
      'a tool call without id',
      { role: 'assistant', tool_calls: [{ name: 'n', arguments: '{}', origin: 'completion' }] },
      [{ loc: ['tool_calls', 0, 'id'], type: 'missing' }],
    ],
    [
      'Message',
      'a number as text',
      { role: 'user', content: [text(), { text: 3 }] },
      [{ loc: ['content', 1, 'text'], type: 'string_type' }],
    ],
    [
      'Message',
      'a string as responses_reasoning_item',
      { role: 'assistant', responses_reasoning_item: 'r' },
      [{ loc: ['responses_reasoning_item'], type: 'dict_type' }],
    ],
    ['TextContent', 'a wrong type constant', { type: 'image', text: 'x' }, [{ loc: ['type'], type: 'literal_error' }]],
    [
      'TextContent',
      'a string as cache_prompt',
      { text: 'x', cache_prompt: 'false' },
      [{ loc: ['cache_prompt'], type: 'bool_type' }],
    ],
    [
      'ImageContent',
      'a string as image_urls',
      { image_urls: 'https://x.org/a.png' },
      [{ loc: ['image_urls'], type: 'list_type' }],
    ],
    [
      'ThinkingBlock',
      'a wrong type constant',
      { type: 'redacted_thinking', thinking: 't' },
      [{ loc: ['type'], type: 'literal_error' }],
    ],
    [
      'RedactedThinkingBlock',
      'a wrong type constant',
      { type: 'thinking', data: 'd' },
      [{ loc: ['type'], type: 'literal_error' }],
    ],
    [
      'ReasoningItemModel',
      'a number in summary',
      { summary: ['a', 1] },
      [{ loc: ['summary', 1], type: 'string_type' }],
    ],
    [
      'MessageToolCall',
      'an object as arguments',
      { ...toolCall(), arguments: {} },
      [{ loc: ['arguments'], type: 'string_type' }],
    ],
    [
      'CriticResult',
      'an array as metadata',
      { score: 0, message: null, metadata: [] },
      [{ loc: ['metadata'], type: 'dict_type' }],
    ],
    [
      'HTTPValidationError',
      'an item without msg',
      { detail: [{ loc: ['body'], type: 'missing' }] },
      [{ loc: ['detail', 0, 'msg'], type: 'missing' }],
    ],
    ['ValidationError', 'a string as loc', { loc: 'body', msg: 'm', type: 't' }, [{ loc: ['loc'], type: 'list_type' }]],
  ];

  it.each(cases)('%s rejects %s', (name, _what, value, expected) => {
    expect(problems(parserOf(name), value)).toEqual(expected);
  });

  it.each([[1.5], [true], [null], [{}]])('ValidationError.loc rejects the item %j (string or integer only)', (item) => {
    const found = problems(parserOf('ValidationError'), { loc: ['body', item], msg: 'm', type: 't' });
    expect(found.length).toBeGreaterThan(0);
    for (const problem of found) expect(problem.loc).toEqual(['loc', 1]);
  });

  it('ValidationError.loc mixes strings and integers', () => {
    const value = { loc: ['body', 'events', 0, 'kind'], msg: 'm', type: 't' };
    expect(parse(ValidationError, clone(value))).toEqual(value);
  });

  it('CriticResult.metadata accepts any keys', () => {
    const value = { score: 0.1, message: 'm', metadata: { event_ids: ['a'], categorized_features: { x: [1] } } };
    expect(parse(CriticResult, clone(value))).toEqual(value);
  });
});

describe('Supporting shape nullable fields', () => {
  fields.itAcceptsNull([
    ['ThinkingBlock', 'signature'],
    ['ReasoningItemModel', 'id'],
    ['ReasoningItemModel', 'content'],
    ['ReasoningItemModel', 'encrypted_content'],
    ['ReasoningItemModel', 'status'],
    ['CriticResult', 'message'],
    ['CriticResult', 'metadata'],
    ['Message', 'tool_calls'],
    ['Message', 'tool_call_id'],
    ['Message', 'name'],
    ['Message', 'reasoning_content'],
    ['Message', 'responses_reasoning_item'],
  ]);

  fields.itRejectsNull([
    ['TextContent', 'text', 'string_type'],
    ['TextContent', 'cache_prompt', 'bool_type'],
    ['ImageContent', 'image_urls', 'list_type'],
    ['ThinkingBlock', 'thinking', 'string_type'],
    ['RedactedThinkingBlock', 'data', 'string_type'],
    ['ReasoningItemModel', 'summary', 'list_type'],
    ['MessageToolCall', 'id', 'string_type'],
    ['MessageToolCall', 'arguments', 'string_type'],
    ['CriticResult', 'score', 'float_type'],
    ['Message', 'content', 'list_type'],
    ['Message', 'thinking_blocks', 'list_type'],
    ['ValidationError', 'loc', 'list_type'],
    ['ValidationError', 'msg', 'string_type'],
  ]);
});

describe('HTTPValidationError', () => {
  it('detail is optional: the spec marks no field of it required (unlike ValidationError, "all required")', () => {
    expect(safeParse(HTTPValidationError, {})).toEqual({ ok: true, value: {} });
  });

  it('accepts an empty detail list', () => {
    expect(parse(HTTPValidationError, { detail: [] })).toEqual({ detail: [] });
  });
});
