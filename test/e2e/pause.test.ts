import { describe, expect, it } from 'vitest';
import { FINISHING, OPENING, ofKind, outline, recordedRequests, sleep, startStack, withoutStats } from './support.ts';
import { finish, think } from './turns.ts';

describe('pause', () => {
  it('pauses while the LLM call is in flight: that step completes, no further call; run resumes', async () => {
    const { server, llm } = await startStack({
      turns: [{ ...think('A slow thought.'), delay_ms: 2000 }, finish('Resumed and done.')],
    });
    const created = await server.startConversation(llm, { message: 'Think slowly.' });
    const deadline = Date.now() + 10_000;
    while (llm.requests().length === 0) {
      if (Date.now() > deadline) throw new Error('the LLM was never called');
      await sleep(10);
    }
    const paused = await server.api('POST', `/api/conversations/${created.id}/pause`);
    expect(paused.status, paused.text).toBe(200);
    expect(paused.body).toEqual({ success: true });
    const info = await server.api<{ execution_status: string }>('GET', `/api/conversations/${created.id}`);
    expect(info.body.execution_status).toBe('paused');

    // The in-flight step still completes (its tool runs), then the loop stops before calling the LLM again.
    await server.waitForEvents(created.id, (events) => ofKind(events, 'ObservationEvent').length === 1);
    await sleep(300);
    expect(llm.requests()).toHaveLength(1);
    const atPause = withoutStats(await server.allEvents(created.id));
    expect(outline(atPause)).toEqual([
      ...OPENING,
      'PauseEvent',
      'status:paused',
      'ActionEvent:think',
      'ObservationEvent:ThinkObservation',
    ]);
    expect(atPause[3]).toMatchObject({ kind: 'PauseEvent', source: 'user' });
    expect((await server.api<{ execution_status: string }>('GET', `/api/conversations/${created.id}`)).body).toEqual(
      expect.objectContaining({ execution_status: 'paused' }),
    );

    // Resume. The paused run may still be winding down for a moment (409 until it has): retry briefly.
    let run = await server.api('POST', `/api/conversations/${created.id}/run`);
    for (let i = 0; run.status === 409 && i < 100; i++) {
      await sleep(50);
      run = await server.api('POST', `/api/conversations/${created.id}/run`);
    }
    expect(run.status, run.text).toBe(200);
    const events = await server.settledEvents(created.id);
    expect(outline(events.slice(atPause.length))).toEqual(['status:running', ...FINISHING]);
    const requests = await recordedRequests(llm);
    expect(requests.map((r) => r.turn_index)).toEqual([0, 1]);
    const resumed = (requests[1]?.body as { messages: { role: string; content: string }[] }).messages;
    expect(resumed.at(-1)).toMatchObject({ role: 'tool', content: 'Your thought has been logged.' });
  });
});
