import { describe, expect, it } from 'vitest';
import { startConversationInput } from '../../src/conversations/agent-request.ts';
import { effectiveLlm } from '../../src/settings/llm-defaults.ts';
import { retryPolicyOf, retryPolicyProblems } from '../../src/settings/llm-retry.ts';

const POLICY = { num_retries: 2, retry_min_wait: 1, retry_max_wait: 4, retry_multiplier: 2 };

describe("the LLM retry policy of a user's settings", () => {
  it('reaches the agent of the conversations they start, next to the model', () => {
    const llm = effectiveLlm({ llm_model: 'openai/m', agent_settings: { llm: POLICY } }, {});
    const input = startConversationInput({
      id: 'c',
      workingDir: '/w',
      llm: { ...llm, model: 'openai/m' },
      request: {} as Parameters<typeof startConversationInput>[0]['request'],
      secrets: {},
    });
    expect(input.agent?.llm).toEqual({ model: 'openai/m', ...POLICY });
  });

  it('keeps the agent defaults for what is not set, and ignores a policy that is not valid', () => {
    expect(retryPolicyOf({ agent_settings: { llm: { num_retries: 1 } } })).toEqual({ num_retries: 1 });
    expect(retryPolicyOf({ agent_settings: { llm: { num_retries: 1.5 } } })).toEqual({});
    expect(retryPolicyOf({})).toEqual({});
  });

  it('names each bad field of an update', () => {
    expect(retryPolicyProblems({ llm: { num_retries: 'x', retry_min_wait: -1, retry_max_wait: 2 } })).toEqual([
      { loc: ['body', 'agent_settings_diff', 'llm', 'num_retries'], msg: expect.any(String), type: 'value_error' },
      { loc: ['body', 'agent_settings_diff', 'llm', 'retry_min_wait'], msg: expect.any(String), type: 'value_error' },
    ]);
    expect(retryPolicyProblems({ llm: POLICY })).toEqual([]);
    expect(retryPolicyProblems({ condenser: {} })).toEqual([]);
  });
});
