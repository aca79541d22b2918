import { describe, expect, it } from 'vitest';
import { FINISHING, OPENING, outline, sleep, startStack, withoutStats } from './support.ts';
import { finish, terminal, think } from './turns.ts';

/** Transitions of the state machine (packages/agent/README.md) that no other end-to-end test walks through. */
describe('status transitions', () => {
  it('a user message reopens a stuck conversation: stuck -> idle (with its state event), then it runs again', async () => {
    const { server, llm } = await startStack({
      turns: [
        { ...think('Same thought, again.'), times: 4, when: { last_user_message_contains: 'Loop' } },
        finish('Unstuck.'),
      ],
    });
    const created = await server.startConversation(llm, { message: 'Loop forever.' });
    const stuck = await server.settledEvents(created.id, 'stuck');

    const sent = await server.api('POST', `/api/conversations/${created.id}/events`, {
      role: 'user',
      content: [{ type: 'text', text: 'Please stop repeating yourself.' }],
    });
    expect(sent.status).toBe(200);
    expect((await server.conversation(created.id)).execution_status).toBe('idle');
    expect((await server.api('POST', `/api/conversations/${created.id}/run`)).status).toBe(200);
    await server.waitForStatus(created.id, 'finished');
    expect(outline(withoutStats(await server.allEvents(created.id))).slice(stuck.length)).toEqual([
      'MessageEvent:user',
      'status:idle',
      'status:running',
      ...FINISHING,
    ]);
  });

  it('pausing while actions wait for confirmation: waiting -> paused; a run from paused asks again', async () => {
    const { server, llm } = await startStack({
      turns: [terminal('echo hi')],
    });
    const created = await server.startConversation(llm, {
      message: 'Say hi.',
      extra: { confirmation_policy: { kind: 'AlwaysConfirm' } },
    });
    const waiting = await server.settledEvents(created.id, 'waiting_for_confirmation');
    expect((await server.api('POST', `/api/conversations/${created.id}/pause`)).status).toBe(200);
    expect((await server.conversation(created.id)).execution_status).toBe('paused');
    expect((await server.api('POST', `/api/conversations/${created.id}/run`)).status).toBe(200);
    await server.waitForStatus(created.id, 'waiting_for_confirmation');
    expect(outline(withoutStats(await server.allEvents(created.id))).slice(waiting.length)).toEqual([
      'PauseEvent',
      'status:paused',
      'status:running',
      'status:waiting_for_confirmation',
    ]);
    expect(llm.requests()).toHaveLength(1);
  });

  it('POST /run on a finished conversation answers 200 and changes nothing (a new message reopens it)', async () => {
    const { server, llm } = await startStack({
      turns: [finish('Done.')],
    });
    const created = await server.startConversation(llm, { message: 'Finish.' });
    await server.waitForStatus(created.id, 'finished');
    const before = await server.allEvents(created.id);
    const run = await server.api('POST', `/api/conversations/${created.id}/run`);
    expect(run.status).toBe(200);
    await sleep(200);
    expect(await server.allEvents(created.id)).toEqual(before);
    expect((await server.conversation(created.id)).execution_status).toBe('finished');
    expect(llm.requests()).toHaveLength(1);
  });

  it('a response with neither text nor a tool call: the agent is nudged and the run goes on (running stays)', async () => {
    const { server, llm } = await startStack({
      turns: [{ content: '', reasoning: 'Thinking without acting.' }, finish('Acted.')],
    });
    const created = await server.startConversation(llm, { message: 'Act.' });
    await server.waitForStatus(created.id, 'finished');
    expect(outline(withoutStats(await server.allEvents(created.id)))).toEqual([
      ...OPENING,
      'MessageEvent:agent',
      'MessageEvent:environment',
      ...FINISHING,
    ]);
  });
});
