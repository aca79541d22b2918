import { parseEvent } from '@bosun/protocol';
import { describe, expect, it } from 'vitest';
import { problems, withField, without } from './fixtures/conformance.ts';
import { SOURCES, SOURCE_RULES } from './fixtures/events.ts';
import { EVENT_KINDS } from './fixtures/kinds.ts';
import { describeUnionSuite } from './fixtures/union-suite.ts';

const { minimal, fields } = describeUnionSuite('Event', 14, { alsoCovering: [Object.keys(SOURCE_RULES)] });

describe('Event source', () => {
  const rules = Object.entries(SOURCE_RULES);

  it.each(rules.filter(([, rule]) => rule !== 'required'))('%s: source defaults to %s', (kind, rule) => {
    expect(parseEvent(without(minimal(kind), 'source'))).toMatchObject({ source: rule });
  });

  it.each(rules.filter(([, rule]) => rule === 'required'))('%s: source is required (no default)', (kind) => {
    expect(problems(parseEvent, without(minimal(kind), 'source'))).toEqual([{ loc: ['source'], type: 'missing' }]);
  });

  it.each(EVENT_KINDS.map((kind) => [kind]))('%s accepts every source of the enum', (kind) => {
    for (const source of SOURCES)
      expect(parseEvent(withField(minimal(kind), 'source', source))).toMatchObject({ source });
  });

  it.each(EVENT_KINDS.map((kind) => [kind]))('%s rejects a source outside the enum (`hook`, `Agent`)', (kind) => {
    for (const source of ['hook', 'Agent']) {
      expect(problems(parseEvent, withField(minimal(kind), 'source', source))).toEqual([
        { loc: ['source'], type: 'enum' },
      ]);
    }
  });

  it('does not replace a given source by the default', () => {
    const parsed = parseEvent({ ...minimal('ActionEvent'), source: 'user' });
    expect(parsed.source).toBe('user');
  });
});

describe('Event defaults stated by the spec', () => {
  fields.itDefaults([
    ['ActionEvent', 'source', 'agent'],
    ['ActionEvent', 'security_risk', 'UNKNOWN'],
    ['UserRejectObservation', 'rejection_reason', 'User rejected the action'],
    ['UserRejectObservation', 'rejection_source', 'user'],
    ['LLMCompletionLogEvent', 'model_name', 'unknown'],
    ['LLMCompletionLogEvent', 'usage_id', 'default'],
    ['PauseEvent', 'source', 'user'],
    ['SystemPromptEvent', 'source', 'agent'],
    ['AgentErrorEvent', 'source', 'agent'],
    ['ObservationEvent', 'source', 'environment'],
  ]);

  it.each([
    ['MessageEvent', 'source'],
    ['ConversationErrorEvent', 'source'],
    ['TokenEvent', 'source'],
  ])('%s without %s is invalid', (kind, field) => {
    expect(problems(parseEvent, without(minimal(kind), field))).toEqual([{ loc: [field], type: 'missing' }]);
  });
});

describe('Event common fields', () => {
  it.each([
    ['a UUID', '0190b2a4-7c3e-7d6a-9f1e-2b3c4d5e6f70'],
    ['a ULID', '01ARZ3NDEKTSV4RRFFQ69G5FAV'],
  ])('id may be %s', (_what, id) => {
    expect(parseEvent({ kind: 'PauseEvent', id })).toMatchObject({ id });
  });

  it.each([
    ['ISO-8601 UTC', '2026-06-16T05:39:18.809Z'],
    ['naive local time (OpenHands)', '2026-06-16T05:39:18.809928'],
  ])('timestamp may be %s (the spec only says string)', (_what, timestamp) => {
    expect(parseEvent({ kind: 'PauseEvent', timestamp })).toMatchObject({ timestamp });
  });

  it.each([
    ['id', 42, 'string_type'],
    ['timestamp', 1718516358, 'string_type'],
    ['id', null, 'string_type'],
  ])('%s = %j reports %s', (field, value, type) => {
    expect(problems(parseEvent, { kind: 'PauseEvent', [field]: value })).toEqual([{ loc: [field], type }]);
  });
});

describe('Event limits', () => {
  const condensation = (summary_offset: unknown) => ({ kind: 'Condensation', llm_response_id: 'r', summary_offset });

  it.each([[0], [1], [1000]])('Condensation accepts summary_offset %j', (offset) => {
    expect(parseEvent(condensation(offset))).toMatchObject({ summary_offset: offset });
  });

  it.each([
    [-1, 'greater_than_equal'],
    [-100, 'greater_than_equal'],
    [1.5, 'int_type'],
    ['1', 'int_type'],
  ])('Condensation rejects summary_offset %j (%s)', (offset, type) => {
    expect(problems(parseEvent, condensation(offset))).toEqual([{ loc: ['summary_offset'], type }]);
  });

  it('ActionEvent.critic_result.score is bounded to 0..1', () => {
    const withScore = (score: number) => ({ ...minimal('ActionEvent'), critic_result: { score, message: null } });
    expect(parseEvent(withScore(0))).toMatchObject({ critic_result: { score: 0 } });
    expect(parseEvent(withScore(1))).toMatchObject({ critic_result: { score: 1 } });
    expect(problems(parseEvent, withScore(-0.01))).toEqual([
      { loc: ['critic_result', 'score'], type: 'greater_than_equal' },
    ]);
    expect(problems(parseEvent, withScore(1.01))).toEqual([
      { loc: ['critic_result', 'score'], type: 'less_than_equal' },
    ]);
  });

  it('ActionEvent.action is checked against the Action limits (index >= 0)', () => {
    const event = { ...minimal('ActionEvent'), action: { kind: 'BrowserClickAction', index: -1 } };
    expect(problems(parseEvent, event)).toEqual([{ loc: ['action', 'index'], type: 'greater_than_equal' }]);
  });
});

describe('Event nullable fields', () => {
  fields.itAcceptsNull([
    ['Condensation', 'summary'],
    ['Condensation', 'summary_offset'],
    ['ActionEvent', 'reasoning_content'],
    ['ActionEvent', 'responses_reasoning_item'],
    ['ActionEvent', 'action'],
    ['ActionEvent', 'critic_result'],
    ['ActionEvent', 'summary'],
    ['MessageEvent', 'llm_response_id'],
    ['MessageEvent', 'sender'],
    ['MessageEvent', 'critic_result'],
    ['SystemPromptEvent', 'dynamic_context'],
  ]);

  fields.itRejectsNullAtField([
    ['Condensation', 'llm_response_id', 'string_type'],
    ['Condensation', 'forgotten_event_ids', 'list_type'],
    ['CondensationSummaryEvent', 'summary', 'string_type'],
    ['ConversationErrorEvent', 'code', 'string_type'],
    ['ConversationErrorEvent', 'detail', 'string_type'],
    ['ConversationStateUpdateEvent', 'key', 'string_type'],
    ['LLMCompletionLogEvent', 'filename', 'string_type'],
    ['LLMCompletionLogEvent', 'model_name', 'string_type'],
    ['ActionEvent', 'thought', 'list_type'],
    ['ActionEvent', 'tool_name', 'string_type'],
    ['ActionEvent', 'tool_call', 'dict_type'],
    ['ActionEvent', 'llm_response_id', 'string_type'],
    ['ActionEvent', 'security_risk', 'string_type'],
    ['ActionEvent', 'thinking_blocks', 'list_type'],
    ['MessageEvent', 'llm_message', 'dict_type'],
    ['MessageEvent', 'activated_skills', 'list_type'],
    ['MessageEvent', 'extended_content', 'list_type'],
    ['AgentErrorEvent', 'error', 'string_type'],
    ['ObservationEvent', 'observation', 'dict_type'],
    ['ObservationEvent', 'action_id', 'string_type'],
    ['UserRejectObservation', 'rejection_reason', 'string_type'],
    ['UserRejectObservation', 'rejection_source', 'string_type'],
    ['SystemPromptEvent', 'system_prompt', 'dict_type'],
    ['SystemPromptEvent', 'tools', 'list_type'],
    ['TokenEvent', 'prompt_token_ids', 'list_type'],
  ]);

  it.each([[null], [0], [true], ['running'], [[1, 'two']], [{ nested: { deep: [null] } }]])(
    'ConversationStateUpdateEvent.value accepts any JSON value: %j',
    (value) => {
      expect(parseEvent({ kind: 'ConversationStateUpdateEvent', key: 'k', value })).toMatchObject({ value });
    },
  );
});
