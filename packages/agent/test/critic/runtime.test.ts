import { Agent, type CriticFailure, type LLMResponse, createFinishTool, createThinkTool } from '@bosun/agent';
import { type Event, parseEvent } from '@bosun/protocol';
import { describe, expect, it } from 'vitest';
import { MemorySession, ScriptedProvider, user } from '../condenser/fixtures.ts';
import { scriptedProvider } from '../support/scripted-provider.ts';
import { sandbox } from '../tools/support.ts';
import { criticAgent } from './support.ts';

/** The agent's LLM, answering each request with the next response. */
const agentLLM = (responses: Partial<LLMResponse>[]) => scriptedProvider(responses, criticAgent(null).llm);

const think = (id: string) => ({ id, name: 'think', arguments: JSON.stringify({ thought: `about ${id}` }) });

async function runWithCritic(critic: Record<string, unknown>, answers: string[], responses: Partial<LLMResponse>[]) {
  const box = await sandbox();
  const agent = criticAgent({ kind: 'LLMCritic', ...critic });
  const criticProvider = new ScriptedProvider(answers);
  const failures: CriticFailure[] = [];
  const runtime = new Agent(agent, {
    provider: agentLLM(responses),
    criticProvider,
    onCriticFailure: (failure) => failures.push(failure),
    tools: [createThinkTool(), createFinishTool()],
    workspace: box.workspace,
    stateDir: box.stateDir,
  });
  const session = new MemorySession(agent, [user('Think twice, then answer.', 'u1')]);
  await runtime.run(session);
  await runtime.close();
  // Everything stored must be a valid event of the protocol (critic_result included).
  const events: Event[] = session.log.map((event) => parseEvent(event));
  return { events, session, criticProvider, failures };
}

describe('the critic in the run loop', () => {
  it('stores ActionEvents and the final answer with their critic_result; the critic reads what came before', async () => {
    const { events, session, criticProvider, failures } = await runWithCritic(
      {},
      [
        '{"score": 0.9, "message": "Good first step."}',
        '{"score": 0.6, "message": "Fine."}',
        '{"score": 0.3, "message": "Thin."}',
      ],
      [{ toolCalls: [think('c1')] }, { toolCalls: [think('c2'), think('c3')] }, { content: 'The answer is 42.' }],
    );
    expect(session.current).toBe('finished');
    const actions = events.filter((e) => e.kind === 'ActionEvent');
    expect(actions.map((a) => [a.tool_call_id, a.critic_result?.score, a.critic_result?.message])).toEqual([
      ['c1', 0.9, 'Good first step.'],
      ['c2', 0.6, 'Fine.'],
      ['c3', 0.6, 'Fine.'],
    ]);
    const answer = events.find((e) => e.kind === 'MessageEvent' && e.source === 'agent');
    expect(answer).toMatchObject({
      critic_result: { score: 0.3, message: 'Thin.', metadata: { usage_id: 'critic', subject: 'message' } },
    });
    // One request per step: the second sees the first step and its result, the third the parallel batch.
    expect(criticProvider.requests).toHaveLength(3);
    const prompt = (i: number) => (criticProvider.requests[i]?.messages[0]?.content[0] as { text: string }).text;
    expect(prompt(0)).toContain('1. think({"thought":"about c1"})');
    expect(prompt(1)).toContain('result of think');
    expect(prompt(1)).toContain('2 tool calls of one response');
    expect(prompt(2)).toContain('<AGENT FINAL ANSWER>\nThe answer is 42.\n</AGENT FINAL ANSWER>');
    expect(session.usage.map((u) => u.usageId)).toEqual([
      'default',
      'critic',
      'default',
      'critic',
      'default',
      'critic',
    ]);
    expect(failures).toEqual([]);
  });

  it('a critic that answers badly never fails the run: the events are stored without critic_result', async () => {
    const { events, session, failures } = await runWithCritic(
      { evaluate: 'actions' },
      ['no JSON here', 'nor here'],
      [{ toolCalls: [think('c1')] }, { toolCalls: [{ id: 'f', name: 'finish', arguments: '{"message":"Done."}' }] }],
    );
    expect(session.current).toBe('finished');
    const actions = events.filter((e) => e.kind === 'ActionEvent');
    expect(actions.map((a) => [a.tool_name, a.critic_result])).toEqual([
      ['think', undefined],
      ['finish', undefined],
    ]);
    expect(failures.map((f) => f.toolCallIds)).toEqual([['c1'], ['f']]);
  });

  it('without a critic nothing changes', async () => {
    const box = await sandbox();
    const agent = criticAgent(null);
    const runtime = new Agent(agent, {
      provider: agentLLM([{ content: 'Hi.' }]),
      criticProvider: new ScriptedProvider([]),
      tools: [createFinishTool()],
      workspace: box.workspace,
      stateDir: box.stateDir,
    });
    const session = new MemorySession(agent, [user('Hello', 'u1')]);
    await runtime.run(session);
    expect(session.log.find((e) => e.kind === 'MessageEvent' && e.source === 'agent')).not.toHaveProperty(
      'critic_result',
    );
    expect(session.usage.map((u) => u.usageId)).toEqual(['default']);
  });
});
