import { parseEvent } from '@bosun/protocol';
import { describe, expect, it } from 'vitest';
import { type Json, type Problem, clone, minimalOf, problems, sorted, without } from './fixtures/conformance.ts';
import { eventCases } from './fixtures/events.ts';
import { text, toolCall } from './fixtures/supporting.ts';

/** Events with nested shapes: where wrong nested values are reported, nested defaults, OpenHands' own events. */

const minimal = (kind: string): Json => minimalOf(eventCases, kind);

describe('Event wrong types report where they are', () => {
  const cases: [string, Json, Problem[]][] = [
    [
      'MessageEvent with a number as text',
      { ...minimal('MessageEvent'), llm_message: { role: 'user', content: [{ type: 'text', text: 5 }] } },
      [{ loc: ['llm_message', 'content', 0, 'text'], type: 'string_type' }],
    ],
    [
      'MessageEvent with an unknown role',
      { ...minimal('MessageEvent'), llm_message: { role: 'bot' } },
      [{ loc: ['llm_message', 'role'], type: 'enum' }],
    ],
    [
      'ActionEvent with a boolean in the second thought',
      { ...minimal('ActionEvent'), thought: [text(), { text: true }] },
      [{ loc: ['thought', 1, 'text'], type: 'string_type' }],
    ],
    [
      'ActionEvent with an unknown tool call origin',
      { ...minimal('ActionEvent'), tool_call: { ...toolCall(), origin: 'chat' } },
      [{ loc: ['tool_call', 'origin'], type: 'enum' }],
    ],
    [
      'ActionEvent with a tool call missing its arguments',
      { ...minimal('ActionEvent'), tool_call: without(toolCall(), 'arguments') },
      [{ loc: ['tool_call', 'arguments'], type: 'missing' }],
    ],
    [
      'ActionEvent with an unknown security risk',
      { ...minimal('ActionEvent'), security_risk: 'CRITICAL' },
      [{ loc: ['security_risk'], type: 'enum' }],
    ],
    [
      'ActionEvent with a thinking block without thinking',
      { ...minimal('ActionEvent'), thinking_blocks: [{ type: 'thinking' }] },
      [{ loc: ['thinking_blocks', 0, 'thinking'], type: 'missing' }],
    ],
    [
      'ActionEvent with a string as reasoning summary',
      { ...minimal('ActionEvent'), responses_reasoning_item: { summary: 'x' } },
      [{ loc: ['responses_reasoning_item', 'summary'], type: 'list_type' }],
    ],
    [
      'ActionEvent with an Observation as action',
      { ...minimal('ActionEvent'), action: { kind: 'TerminalObservation' } },
      [{ loc: ['action', 'kind'], type: 'union_tag_invalid' }],
    ],
    [
      'ActionEvent with an action without kind',
      { ...minimal('ActionEvent'), action: { command: 'ls' } },
      [{ loc: ['action', 'kind'], type: 'missing' }],
    ],
    [
      'ActionEvent with an unknown property in the action',
      { ...minimal('ActionEvent'), action: { kind: 'ThinkAction', thought: 't', security_risk: 'LOW' } },
      [{ loc: ['action', 'security_risk'], type: 'extra_forbidden' }],
    ],
    [
      'ObservationEvent with an Action as observation',
      { ...minimal('ObservationEvent'), observation: { kind: 'TerminalAction', command: 'ls' } },
      [{ loc: ['observation', 'kind'], type: 'union_tag_invalid' }],
    ],
    [
      'ObservationEvent with a string exit code in the terminal metadata',
      {
        ...minimal('ObservationEvent'),
        observation: { kind: 'TerminalObservation', command: 'ls', metadata: { exit_code: '0' } },
      },
      [{ loc: ['observation', 'metadata', 'exit_code'], type: 'int_type' }],
    ],
    [
      'SystemPromptEvent with an Action kind in tools',
      { ...minimal('SystemPromptEvent'), tools: [{ kind: 'TerminalAction' }] },
      [{ loc: ['tools', 0, 'kind'], type: 'union_tag_invalid' }],
    ],
    [
      'SystemPromptEvent with an image as system prompt',
      { ...minimal('SystemPromptEvent'), system_prompt: { type: 'image', text: 'x' } },
      [{ loc: ['system_prompt', 'type'], type: 'literal_error' }],
    ],
    [
      'UserRejectObservation with an unknown rejection source',
      { ...minimal('UserRejectObservation'), rejection_source: 'admin' },
      [{ loc: ['rejection_source'], type: 'enum' }],
    ],
    [
      'Condensation with a string as forgotten_event_ids',
      { kind: 'Condensation', llm_response_id: 'r', forgotten_event_ids: 'e1' },
      [{ loc: ['forgotten_event_ids'], type: 'list_type' }],
    ],
    [
      'Condensation with a number among the forgotten ids',
      { kind: 'Condensation', llm_response_id: 'r', forgotten_event_ids: ['e1', 2] },
      [{ loc: ['forgotten_event_ids', 1], type: 'string_type' }],
    ],
    [
      'TokenEvent with a string token id',
      { ...minimal('TokenEvent'), prompt_token_ids: [1, '2'] },
      [{ loc: ['prompt_token_ids', 1], type: 'int_type' }],
    ],
    [
      'TokenEvent with a fractional token id',
      { ...minimal('TokenEvent'), response_token_ids: [1.5] },
      [{ loc: ['response_token_ids', 0], type: 'int_type' }],
    ],
    [
      'ConversationStateUpdateEvent with a number as key',
      { kind: 'ConversationStateUpdateEvent', key: 5 },
      [{ loc: ['key'], type: 'string_type' }],
    ],
  ];

  it.each(cases)('%s', (_name, event, expected) => {
    expect(problems(parseEvent, event)).toEqual(expected);
  });

  it('reports every problem at once, each at its own place', () => {
    const event = { kind: 'ActionEvent', source: 'robot', thought: 'x', tool_name: 1, extra: true };
    expect(sorted(problems(parseEvent, event).map((p) => `${p.loc.join('.')}:${p.type}`))).toEqual(
      sorted([
        'source:enum',
        'thought:list_type',
        'tool_name:string_type',
        'extra:extra_forbidden',
        'tool_call_id:missing',
        'tool_call:missing',
        'llm_response_id:missing',
      ]),
    );
  });
});

describe('Event parsing fills in nested defaults', () => {
  it('TextContent inside ActionEvent.thought', () => {
    const parsed = parseEvent({ ...minimal('ActionEvent'), thought: [{ text: 'a' }, { type: 'text', text: 'b' }] });
    expect(parsed).toMatchObject({ thought: [text('a'), text('b')] });
  });

  it('thinking blocks inside ActionEvent (type may be omitted)', () => {
    const parsed = parseEvent({ ...minimal('ActionEvent'), thinking_blocks: [{ thinking: 't' }, { data: 'd' }] });
    expect(parsed).toMatchObject({
      thinking_blocks: [
        { type: 'thinking', thinking: 't' },
        { type: 'redacted_thinking', data: 'd' },
      ],
    });
  });

  it('the action of an ActionEvent', () => {
    const parsed = parseEvent({ ...minimal('ActionEvent'), action: { kind: 'BrowserScrollAction' } });
    expect(parsed).toMatchObject({ action: { kind: 'BrowserScrollAction', direction: 'down' } });
  });

  it('ReasoningItemModel inside ActionEvent', () => {
    const parsed = parseEvent({ ...minimal('ActionEvent'), responses_reasoning_item: {} });
    expect(parsed).toMatchObject({ responses_reasoning_item: { summary: [] } });
  });

  it('Message and its content inside MessageEvent', () => {
    const parsed = parseEvent({
      kind: 'MessageEvent',
      source: 'user',
      llm_message: { role: 'user', content: [{ text: 'hi' }, { image_urls: ['https://x.org/a.png'] }] },
      extended_content: [{ text: 'extra' }],
    });
    expect(parsed).toEqual({
      kind: 'MessageEvent',
      source: 'user',
      llm_message: {
        role: 'user',
        content: [text('hi'), { type: 'image', image_urls: ['https://x.org/a.png'], cache_prompt: false }],
        thinking_blocks: [],
      },
      activated_skills: [],
      extended_content: [text('extra')],
    });
  });

  it('TerminalObservation and its metadata inside ObservationEvent', () => {
    const parsed = parseEvent({
      ...minimal('ObservationEvent'),
      observation: { kind: 'TerminalObservation', command: 'ls', content: [{ text: 'a.txt' }], metadata: { pid: 7 } },
    });
    expect(parsed).toMatchObject({
      observation: {
        kind: 'TerminalObservation',
        content: [text('a.txt')],
        is_error: false,
        command: 'ls',
        timeout: false,
        metadata: { exit_code: -1, pid: 7, prefix: '', suffix: '' },
      },
    });
  });

  it('TerminalObservation.metadata when omitted', () => {
    const parsed = parseEvent({
      ...minimal('ObservationEvent'),
      observation: { kind: 'TerminalObservation', command: null },
    });
    expect(parsed).toMatchObject({ observation: { metadata: { exit_code: -1, pid: -1, prefix: '', suffix: '' } } });
  });

  it('the system prompt, dynamic context and tool annotations inside SystemPromptEvent', () => {
    const parsed = parseEvent({
      kind: 'SystemPromptEvent',
      system_prompt: { text: 'static' },
      dynamic_context: { text: 'dynamic' },
      tools: [
        {
          kind: 'ThinkTool',
          title: 'think',
          description: 'Logs a thought.',
          action_type: 'ThinkAction',
          annotations: {},
        },
      ],
    });
    expect(parsed).toMatchObject({
      source: 'agent',
      system_prompt: text('static'),
      dynamic_context: text('dynamic'),
      tools: [
        { annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true } },
      ],
    });
  });
});

describe('Events written by OpenHands (reference §5, real fixture lines)', () => {
  it.each([
    [
      'ActionEvent',
      {
        id: 'e54cbba2-1a7b-4a4e-9d59-7f1c6c1d2b3a',
        timestamp: '2026-06-16T05:39:48.701247',
        source: 'agent',
        thought: [{ cache_prompt: false, type: 'text', text: "I'll help you." }],
        reasoning_content: 'Let me analyze.',
        thinking_blocks: [],
        action: { command: 'SESSION_URL=x', is_input: false, timeout: null, reset: false, kind: 'TerminalAction' },
        tool_name: 'terminal',
        tool_call_id: 'chatcmpl-tool-9d03',
        tool_call: {
          id: 'chatcmpl-tool-9d03',
          name: 'terminal',
          arguments: '{"security_risk": "LOW", "summary": "s", "command": "SESSION_URL=x"}',
          origin: 'completion',
        },
        llm_response_id: 'chatcmpl-1',
        security_risk: 'UNKNOWN',
        summary: 'Set the session URL',
        kind: 'ActionEvent',
      },
    ],
    [
      'ObservationEvent',
      {
        id: 'd4f6dce6-0000-4000-8000-000000000000',
        timestamp: '2026-06-16T05:39:49.000001',
        source: 'environment',
        tool_name: 'terminal',
        tool_call_id: 'chatcmpl-tool-9d03',
        observation: {
          content: [{ cache_prompt: false, type: 'text', text: 'Cannot execute multiple commands at once.' }],
          is_error: true,
          command: 'a; b',
          exit_code: null,
          timeout: false,
          metadata: {
            exit_code: -1,
            pid: -1,
            username: null,
            hostname: null,
            working_dir: null,
            py_interpreter_path: null,
            prefix: '',
            suffix: '',
          },
          full_output_save_dir: '/workspace/conversations/e18b/observations',
          kind: 'TerminalObservation',
        },
        action_id: 'e54cbba2-1a7b-4a4e-9d59-7f1c6c1d2b3a',
        kind: 'ObservationEvent',
      },
    ],
    [
      'ConversationStateUpdateEvent',
      {
        id: '03d5',
        timestamp: '2026-06-16T05:39:50.1',
        source: 'environment',
        key: 'execution_status',
        value: 'running',
        kind: 'ConversationStateUpdateEvent',
      },
    ],
  ])('%s parses unchanged', (_kind, event) => {
    expect(parseEvent(clone(event))).toEqual(event);
  });
});
