import { describe, expect, it } from 'vitest';
import {
  type EventBody,
  FINISHING,
  OPENING,
  ofKind,
  outline,
  recordedRequests,
  startStack,
  withoutStats,
} from './support.ts';
import { finish, think } from './turns.ts';

const finishTurn = finish('All good.');

describe('LLM failures', () => {
  it('retries a 429 and a 500, then goes on as if nothing happened', async () => {
    const { server, llm } = await startStack({
      turns: [
        { error: { status: 429, headers: { 'retry-after': '0' } } },
        { error: { status: 500 } },
        think('Made it through.'),
        finishTurn,
      ],
    });
    const created = await server.startConversation(llm, { message: 'Go.', numRetries: 3 });
    await server.waitForStatus(created.id, 'finished');

    const requests = await recordedRequests(llm);
    expect(requests.map((r) => r.turn_index)).toEqual([0, 1, 2, 3]);
    // The three attempts of the first step asked the same thing.
    expect(requests[1]?.body).toEqual(requests[0]?.body);
    expect(requests[2]?.body).toEqual(requests[0]?.body);

    const events = withoutStats(await server.allEvents(created.id));
    expect(outline(events)).toEqual([
      ...OPENING,
      'ActionEvent:think',
      'ObservationEvent:ThinkObservation',
      ...FINISHING,
    ]);
  });

  it('ends in error when the LLM keeps failing, and runs again once it recovers', async () => {
    const { server, llm } = await startStack({ turns: [{ error: { status: 500, times: 100 } }] });
    const created = await server.startConversation(llm, { message: 'Go.', numRetries: 1 });
    await server.waitForStatus(created.id, 'error');
    expect(await recordedRequests(llm)).toHaveLength(2); // the call and one retry

    const failed = withoutStats(await server.allEvents(created.id));
    expect(outline(failed)).toEqual([...OPENING, 'ConversationErrorEvent', 'status:error']);
    const [error] = ofKind<EventBody & { code: string; detail: string }>(failed, 'ConversationErrorEvent');
    expect(error).toMatchObject({ source: 'environment', code: 'LLMServiceUnavailableError' });
    expect(error?.detail).toMatch(/500/);
    expect(error?.detail).toContain('/chat/completions');

    llm.setScript({ turns: [finishTurn] });
    const run = await server.api('POST', `/api/conversations/${created.id}/run`);
    expect(run.status, run.text).toBe(200);
    // The run is visible as soon as the request is answered.
    expect((await server.api<{ execution_status: string }>('GET', `/api/conversations/${created.id}`)).body).toEqual(
      expect.objectContaining({ execution_status: 'running' }),
    );
    const events = await server.settledEvents(created.id);
    expect(outline(events.slice(failed.length))).toEqual(['status:running', ...FINISHING]);
    expect(events.slice(0, failed.length)).toEqual(failed);
    const requests = await recordedRequests(llm);
    // Two failed attempts on the first script's turn 0, then turn 0 of the new script.
    expect(requests.map((r) => r.turn_index)).toEqual([0, 0, 0]);
    // The history sent after the recovery holds no trace of the failure: the same messages as before.
    expect((requests[2]?.body as { messages: unknown[] }).messages).toEqual(
      (requests[0]?.body as { messages: unknown[] }).messages,
    );
  });

  it('retries a call that times out and an answer that is not JSON', async () => {
    const { server, llm } = await startStack({
      // repeat_last: should a loaded machine make a normal answer time out too, its retry is answered as well.
      repeat_last: true,
      turns: [{ hang: true }, { malformed: true }, finishTurn],
    });
    const created = await server.startConversation(llm, { message: 'Go.', numRetries: 2, timeout: 1 });
    await server.waitForStatus(created.id, 'finished');
    expect((await recordedRequests(llm)).map((r) => r.turn_index).slice(0, 3)).toEqual([0, 1, 2]);
    expect(ofKind(await server.allEvents(created.id), 'ConversationErrorEvent')).toEqual([]);
  });

  it('does not retry a rejected request (401): error at once, naming the error class', async () => {
    const { server, llm } = await startStack({
      turns: [{ error: { status: 401, times: 5 } }],
    });
    const created = await server.startConversation(llm, { message: 'Go.', numRetries: 3 });
    await server.waitForStatus(created.id, 'error');
    expect(await recordedRequests(llm)).toHaveLength(1);
    const [error] = ofKind<EventBody & { code: string; detail: string }>(
      await server.allEvents(created.id),
      'ConversationErrorEvent',
    );
    expect(error).toMatchObject({ source: 'environment', code: 'LLMAuthenticationError' });
    expect(error?.detail).toContain('401');
  });
});
