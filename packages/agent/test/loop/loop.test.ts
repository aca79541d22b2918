import { Agent, type LLMResponse, STUCK_REPEATS, type Tool, createFinishTool, createThinkTool } from '@bosun/agent';
import { AgentSpec, type Event, type EventOf, type ObservationOf, parse } from '@bosun/protocol';
import { describe, expect, it } from 'vitest';
import { RunSession } from '../support/run-session.ts';
import { scriptedProvider } from '../support/scripted-provider.ts';
import { sandbox } from '../tools/support.ts';

const spec = parse(AgentSpec, { llm: { model: 'fake' } });

const think = (id: string, thought = id) => ({ id, name: 'think', arguments: JSON.stringify({ thought }) });
const finish = (id: string, message: string) => ({ id, name: 'finish', arguments: JSON.stringify({ message }) });

/** A `think` tool whose execution is replaced by `execute`. */
function thinkTool(execute: () => Promise<ObservationOf<'ThinkObservation'>>): Tool {
  return { ...createThinkTool(), execute };
}

async function setup(
  responses: Partial<LLMResponse>[],
  options: { tools?: Tool[]; maxIterations?: number; stuckDetection?: boolean } = {},
) {
  const box = await sandbox();
  const provider = scriptedProvider(responses, spec.llm);
  const agent = new Agent(spec, {
    provider,
    tools: options.tools ?? [createThinkTool(), createFinishTool()],
    workspace: box.workspace,
    stateDir: box.stateDir,
  });
  const session = new RunSession(spec, options);
  // As the agent server does: the system prompt is the conversation's first event.
  await agent.ensureSystemPrompt(session);
  await session.userMessage('work');
  return { agent, session, provider };
}

const kinds = (events: readonly Event[]) => events.map((event) => event.kind);
const ofKind = <K extends Event['kind']>(events: readonly Event[], kind: K) =>
  events.filter((event): event is EventOf<K> => event.kind === kind);

describe('the run loop', () => {
  it('runs parallel tool calls in call order, one result each, and sends them back in one assistant message', async () => {
    const { agent, session, provider } = await setup([
      { content: 'Two thoughts.', toolCalls: [think('a'), think('b')] },
      { toolCalls: [finish('f', 'Done.')] },
    ]);
    await session.run(agent);
    expect(session.current).toBe('finished');
    const actions = ofKind(session.events, 'ActionEvent');
    expect(actions.map((action) => action.tool_call_id)).toEqual(['a', 'b', 'f']);
    // Both calls of one response share it; only the first carries the response's text.
    expect(actions[0]?.llm_response_id).toBe(actions[1]?.llm_response_id);
    expect(actions[1]?.thought).toEqual([]);
    const observations = ofKind(session.events, 'ObservationEvent');
    expect(observations.map((observation) => [observation.tool_call_id, observation.action_id])).toEqual([
      ['a', actions[0]?.id],
      ['b', actions[1]?.id],
      ['f', actions[2]?.id],
    ]);
    const second = provider.requests[1]?.messages ?? [];
    expect(second.map((message) => message.role)).toEqual(['system', 'user', 'assistant', 'tool', 'tool']);
    expect(second[2]?.tool_calls?.map((call) => call.id)).toEqual(['a', 'b']);
  });

  it('finish ends the run with its message and drops the calls after it', async () => {
    const { agent, session, provider } = await setup([
      { toolCalls: [think('a'), finish('f', 'All done.'), think('z')] },
    ]);
    await session.run(agent);
    expect(session.current).toBe('finished');
    expect(provider.requests).toHaveLength(1);
    expect(ofKind(session.events, 'ActionEvent').map((action) => action.tool_call_id)).toEqual(['a', 'f']);
    const last = ofKind(session.events, 'ObservationEvent').at(-1) as EventOf<'ObservationEvent'>;
    const observation = last.observation as ObservationOf<'FinishObservation'>;
    expect(observation.content).toEqual([{ type: 'text', text: 'All done.', cache_prompt: false }]);
  });

  it('a plain-text answer finishes the run; an empty one is nudged', async () => {
    const { agent, session, provider } = await setup([{ content: '   ' }, { content: 'The answer is 42.' }]);
    await session.run(agent);
    expect(session.current).toBe('finished');
    expect(provider.requests).toHaveLength(2);
    const environment = ofKind(session.events, 'MessageEvent').filter((event) => event.source === 'environment');
    expect(environment).toHaveLength(1);
  });

  it('a tool that throws becomes an AgentErrorEvent the LLM reads, and the run goes on', async () => {
    const failing = thinkTool(async () => {
      throw new Error('the disk is on fire');
    });
    const { agent, session, provider } = await setup(
      [{ toolCalls: [think('a'), { id: 'x', name: 'nowhere', arguments: '{}' }] }, { content: 'Noted.' }],
      { tools: [failing, createFinishTool()] },
    );
    await session.run(agent);
    expect(session.current).toBe('finished');
    const errors = ofKind(session.events, 'AgentErrorEvent');
    expect(errors.map((error) => [error.tool_call_id, error.error])).toEqual([
      ['x', `Tool 'nowhere' not found. Available: ["think","finish"]`],
      ['a', "Error executing tool 'think': the disk is on fire"],
    ]);
    // The unknown call is stored without an action and never executed.
    expect(ofKind(session.events, 'ActionEvent').find((action) => action.tool_call_id === 'x')?.action).toBeNull();
    const tools = (provider.requests[1]?.messages ?? []).filter((message) => message.role === 'tool');
    expect(tools.map((message) => message.tool_call_id).sort()).toEqual(['a', 'x']);
  });

  it('stops in error at max_iterations', async () => {
    const { agent, session, provider } = await setup(
      Array.from({ length: 5 }, (_, i) => ({ toolCalls: [think(`c${i}`, `thought ${i}`)] })),
      { maxIterations: 3 },
    );
    await session.run(agent);
    expect(session.current).toBe('error');
    expect(provider.requests).toHaveLength(3);
    const [error] = ofKind(session.events, 'ConversationErrorEvent');
    expect(error?.code).toBe('MaxIterationsReached');
    expect(error?.detail).toBe('Agent reached maximum iterations limit (3).');
  });

  it(`stops as stuck after ${STUCK_REPEATS} identical rounds, and not when detection is off`, async () => {
    const same = Array.from({ length: STUCK_REPEATS + 2 }, (_, i) => ({ toolCalls: [think(`c${i}`, 'again')] }));
    const stuck = await setup(same, { stuckDetection: true });
    await stuck.session.run(stuck.agent);
    expect(stuck.session.current).toBe('stuck');
    expect(stuck.provider.requests).toHaveLength(STUCK_REPEATS);
    expect(ofKind(stuck.session.events, 'ConversationErrorEvent')[0]?.code).toBe('StuckDetected');

    const free = await setup([...same.slice(0, STUCK_REPEATS), { content: 'Done.' }], { stuckDetection: false });
    await free.session.run(free.agent);
    expect(free.session.current).toBe('finished');
  });

  it('a pause during a step lets the running tool finish, stores its result, then stops before the next LLM call', async () => {
    let started: () => void = () => undefined;
    const running = new Promise<void>((resolve) => {
      started = resolve;
    });
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const slow = thinkTool(async () => {
      started();
      await released;
      return {
        kind: 'ThinkObservation',
        content: [{ type: 'text', text: 'thought it through', cache_prompt: false }],
        is_error: false,
      };
    });
    const { agent, session, provider } = await setup([{ toolCalls: [think('a')] }, { content: 'never asked' }], {
      tools: [slow, createFinishTool()],
    });
    const run = session.run(agent);
    await running;
    await session.setStatus('paused');
    release();
    await run;
    expect(session.current).toBe('paused');
    expect(provider.requests).toHaveLength(1);
    expect(kinds(session.events).slice(-2)).toEqual(['ConversationStateUpdateEvent', 'ObservationEvent']);
    expect(ofKind(session.events, 'ObservationEvent')[0]?.tool_call_id).toBe('a');
  });
});
