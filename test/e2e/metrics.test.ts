import { describe, expect, it } from 'vitest';
import { llmConfig, startStack } from './support.ts';
import { terminal } from './turns.ts';

describe('ConversationInfo.metrics', () => {
  it('adds up the usage and cost of every LLM call of the conversation', async () => {
    const { server, llm } = await startStack({
      turns: [
        { ...terminal('echo hi'), usage: { prompt_tokens: 100, completion_tokens: 10 } },
        { content: 'Done.', usage: { prompt_tokens: 200, completion_tokens: 20 } },
      ],
    });
    const created = await server.startConversation(llm, {
      message: 'Say hi.',
      extra: {
        agent: {
          llm: { ...llmConfig(llm), input_cost_per_token: 0.001, output_cost_per_token: 0.01 },
          tools: [{ name: 'terminal' }],
        },
      },
    });
    // Before any call: a snapshot of nothing, named after the agent's model.
    expect(created.metrics).toEqual({
      model_name: 'test-model',
      accumulated_cost: 0,
      max_budget_per_task: null,
      accumulated_token_usage: expect.objectContaining({ model: 'test-model', prompt_tokens: 0, completion_tokens: 0 }),
    });
    await server.waitForStatus(created.id, 'finished');
    const info = await server.conversation(created.id);
    const metrics = info.metrics as { accumulated_cost: number; accumulated_token_usage: Record<string, unknown> };
    expect(metrics.accumulated_token_usage).toMatchObject({ prompt_tokens: 300, completion_tokens: 30 });
    expect(metrics.accumulated_cost).toBeCloseTo(300 * 0.001 + 30 * 0.01, 10);
    const stats = info.stats as { usage_to_metrics: { default: { accumulated_token_usage: { response_id: string } } } };
    expect(metrics.accumulated_token_usage.response_id).toBe(
      stats.usage_to_metrics.default.accumulated_token_usage.response_id,
    );
    expect(info).toMatchObject({ agent_state: {}, persistence_dir: `conversations/${created.id}` });
  });
});
