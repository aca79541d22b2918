import { describe, expect, it } from 'vitest';
import { type EventBody, FINISHING, OPENING, actionsOf, ofKind, outline, startStack, withoutStats } from './support.ts';
import { finish, think } from './turns.ts';

const ENCRYPTED = 'encrypted-reasoning-state-5f1d2c';

/** Every `encrypted_content` value anywhere in `value`. */
function encryptedValues(value: unknown): unknown[] {
  if (Array.isArray(value)) return value.flatMap(encryptedValues);
  if (!value || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, child]) =>
    key === 'encrypted_content' ? [child, ...encryptedValues(child)] : encryptedValues(child),
  );
}

describe('telemetry events', () => {
  it('logs every completion (log_completions) without any encrypted reasoning content', async () => {
    const model = 'openai/responses/test-model';
    const { server, llm } = await startStack({
      turns: [
        {
          reasoning: 'Plan the step.',
          reasoning_signature: ENCRYPTED,
          tool_calls: [{ name: 'think', arguments: { thought: 'Step one.' } }],
        },
        { ...finish('Logged.'), reasoning: 'Wrap up.' },
      ],
    });
    const created = await server.startConversation(llm, { model, logCompletions: true, message: 'Log it.' });
    await server.waitForStatus(created.id, 'finished');
    const events = await server.allEvents(created.id);
    expect(outline(withoutStats(events))).toEqual([
      ...OPENING,
      'LLMCompletionLogEvent',
      'ActionEvent:think',
      'ObservationEvent:ThinkObservation',
      'LLMCompletionLogEvent',
      ...FINISHING,
    ]);
    const logs = ofKind<EventBody & { log_data: string }>(events, 'LLMCompletionLogEvent');
    const actions = actionsOf(events);
    expect(logs).toHaveLength(llm.requests().length);
    for (const [i, log] of logs.entries()) {
      expect(log).toMatchObject({ source: 'environment', model_name: model, usage_id: 'default' });
      expect(log.filename).toMatch(/^openai__responses__test-model-\d+\.json$/);
      expect(log.log_data).not.toContain(ENCRYPTED);
      const data = JSON.parse(log.log_data) as {
        response_id: string;
        latency_ms: number;
        usage: { prompt_tokens: number; completion_tokens: number };
        request: { model: string; input: unknown[] };
        response: { id: string; output: { type: string }[] };
      };
      // The log is of the very response that produced the action.
      expect(data.response_id).toBe(actions[i]?.llm_response_id);
      expect(data.response.id).toBe(actions[i]?.llm_response_id);
      expect(data.request.model).toBe('test-model');
      expect(data.latency_ms).toBeGreaterThanOrEqual(0);
      expect(data.usage.prompt_tokens).toBeGreaterThan(0);
      expect(data.response.output.map((item) => item.type)).toEqual(['reasoning', 'function_call']);
      for (const value of encryptedValues(data)) expect(value).toBe('<encrypted>');
    }
    // The reasoning state is in the first response, and was sent back in the second request: masked in both logs.
    expect(encryptedValues(JSON.parse(logs[0]?.log_data ?? '{}').response)).toEqual(['<encrypted>']);
    expect(encryptedValues(JSON.parse(logs[1]?.log_data ?? '{}').request)).toEqual(['<encrypted>']);
    // ...while the action (which the next request needs) keeps it.
    expect(actions[0]?.responses_reasoning_item?.encrypted_content).toBe(ENCRYPTED);
    expect(encryptedValues(llm.requests()[1]?.body)).toEqual([ENCRYPTED]);
  });

  it('records the token ids of a Chat Completions answer as a TokenEvent', async () => {
    const { server, llm } = await startStack({
      turns: [
        { ...think('Counting tokens.'), token_ids: { prompt: [101, 2023, 2003], response: [7592, 999] } },
        finish('Tokens seen.'),
      ],
    });
    const created = await server.startConversation(llm, { message: 'Tokens, please.' });
    const events = await server.settledEvents(created.id);
    expect(outline(events)).toEqual([
      ...OPENING,
      'TokenEvent',
      'ActionEvent:think',
      'ObservationEvent:ThinkObservation',
      ...FINISHING,
    ]);
    expect(events[3]).toMatchObject({
      kind: 'TokenEvent',
      source: 'environment',
      prompt_token_ids: [101, 2023, 2003],
      response_token_ids: [7592, 999],
    });
    // Without log_completions, no completion log.
    expect(ofKind(events, 'LLMCompletionLogEvent')).toEqual([]);
  });
});
