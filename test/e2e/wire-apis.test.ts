import type { RecordedRequest } from '@bosun/llm-replay';
import { describe, expect, it } from 'vitest';
import {
  type ActionEventBody,
  type EventBody,
  FINISHING,
  OPENING,
  type ObservationEventBody,
  actionsOf,
  observationsOf,
  outline,
  recordedRequests,
  startStack,
  textOf,
} from './support.ts';
import { finish } from './turns.ts';

const SIGNATURE = 'opaque-signature-0123456789';

interface Run {
  events: EventBody[];
  action: ActionEventBody;
  observation: ObservationEventBody;
  requests: RecordedRequest[];
}

/** The same small script on any wire API: a terminal call (with reasoning), then finish; both requests to `path`. */
async function runSmallScript(model: string, path: string, api: string): Promise<Run> {
  const { server, llm } = await startStack({
    turns: [
      {
        content: 'Checking the shell.',
        reasoning: `Reasoning about ${model}.`,
        reasoning_signature: SIGNATURE,
        tool_calls: [{ name: 'terminal', arguments: { command: 'echo wire-$((40+2))' } }],
      },
      { ...finish(`Finished on ${model}.`), when: { last_tool_result_contains: 'wire-42' } },
    ],
  });
  const created = await server.startConversation(llm, { model, message: 'Say the magic number.' });
  const events = await server.settledEvents(created.id);
  expect(outline(events)).toEqual([
    ...OPENING,
    'ActionEvent:terminal',
    'ObservationEvent:TerminalObservation',
    ...FINISHING,
  ]);
  const [action, finishing] = actionsOf(events) as [ActionEventBody, ActionEventBody];
  const [observation, finished] = observationsOf(events) as [ObservationEventBody, ObservationEventBody];
  expect(action).toMatchObject({
    thought: [{ type: 'text', text: 'Checking the shell.' }],
    action: { kind: 'TerminalAction', command: 'echo wire-$((40+2))' },
    tool_call: { arguments: JSON.stringify({ command: 'echo wire-$((40+2))' }) },
  });
  expect(observation.action_id).toBe(action.id);
  expect(textOf(observation.observation.content)).toContain('wire-42');
  expect(finishing.llm_response_id).not.toBe(action.llm_response_id);
  expect(textOf(finished.observation.content)).toBe(`Finished on ${model}.`);
  const requests = await recordedRequests(llm);
  expect(requests.map((r) => r.turn_index)).toEqual([0, 1]);
  expect(requests.map((r) => [r.path, r.api])).toEqual([
    [path, api],
    [path, api],
  ]);
  return { events, action, observation, requests };
}

describe('the three wire APIs', () => {
  it('Chat Completions: reasoning_content on the action', async () => {
    const { action, observation, requests } = await runSmallScript(
      'test-model',
      '/v1/chat/completions',
      'chat_completions',
    );
    expect(action.llm_response_id).toMatch(/^chatcmpl-/);
    expect(action.tool_call.origin).toBe('completion');
    expect(action.reasoning_content).toBe('Reasoning about test-model.');
    expect(action.thinking_blocks).toEqual([]);
    expect(action.responses_reasoning_item ?? null).toBeNull();
    const body = requests[1]?.body as { model: string; messages: Record<string, unknown>[] };
    expect(body.model).toBe('test-model');
    expect(body.messages.slice(2)).toEqual([
      {
        role: 'assistant',
        content: 'Checking the shell.',
        tool_calls: [
          {
            id: action.tool_call_id,
            type: 'function',
            function: { name: 'terminal', arguments: action.tool_call.arguments },
          },
        ],
      },
      { role: 'tool', tool_call_id: action.tool_call_id, content: textOf(observation.observation.content) },
    ]);
  });

  it('Responses: the reasoning item, encrypted content included, is passed back on the next request', async () => {
    const model = 'openai/responses/test-model';
    const { action, observation, requests } = await runSmallScript(model, '/v1/responses', 'responses');
    expect(action.llm_response_id).toMatch(/^resp_/);
    expect(action.tool_call.origin).toBe('responses');
    const item = action.responses_reasoning_item as Record<string, unknown>;
    expect(item).toMatchObject({
      summary: [`Reasoning about ${model}.`],
      encrypted_content: SIGNATURE,
    });
    expect(item.id).toMatch(/^rs_/);
    expect(action.thinking_blocks).toEqual([]);

    const first = requests[0]?.body as { model: string; instructions: string; store: boolean; input: unknown[] };
    expect(first.model).toBe('test-model');
    expect(first.store).toBe(false);
    expect(first.instructions).toContain('You are Bosun');
    const next = requests[1]?.body as { input: Record<string, unknown>[] };
    expect(next.input).toEqual([
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Say the magic number.' }] },
      {
        type: 'reasoning',
        id: item.id,
        summary: [{ type: 'summary_text', text: `Reasoning about ${model}.` }],
        encrypted_content: SIGNATURE,
      },
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Checking the shell.' }] },
      {
        type: 'function_call',
        call_id: action.tool_call_id,
        name: 'terminal',
        arguments: action.tool_call.arguments,
      },
      {
        type: 'function_call_output',
        call_id: action.tool_call_id,
        output: textOf(observation.observation.content),
      },
    ]);
  });

  it('Anthropic Messages: thinking blocks with their signature are passed back on the next request', async () => {
    const model = 'anthropic/claude-test';
    const { action, observation, requests } = await runSmallScript(model, '/v1/messages', 'messages');
    expect(requests[0]?.headers['anthropic-version']).toBe('2023-06-01');
    expect(requests[0]?.headers['x-api-key']).toBe('[REDACTED]');
    expect(action.llm_response_id).toMatch(/^msg_/);
    expect(action.tool_call_id).toMatch(/^toolu_/);
    const thinking = { type: 'thinking', thinking: `Reasoning about ${model}.`, signature: SIGNATURE };
    expect(action.thinking_blocks).toEqual([thinking]);

    const first = requests[0]?.body as { model: string; system: string; max_tokens: number };
    expect(first.model).toBe('claude-test');
    expect(first.system).toContain('You are Bosun');
    expect(first.max_tokens).toBeGreaterThan(0);
    const next = requests[1]?.body as { messages: Record<string, unknown>[] };
    expect(next.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Say the magic number.' }] },
      {
        role: 'assistant',
        content: [
          thinking,
          { type: 'text', text: 'Checking the shell.' },
          { type: 'tool_use', id: action.tool_call_id, name: 'terminal', input: { command: 'echo wire-$((40+2))' } },
        ],
      },
      {
        role: 'user',
        content: [
          {
            type: 'tool_result',
            tool_use_id: action.tool_call_id,
            content: textOf(observation.observation.content),
          },
        ],
      },
    ]);
  });
});
