import { describe, expect, it } from 'vitest';
import { type EventBody, OPENING, ofKind, outline, recordedRequests, sleep, startStack } from './support.ts';
import { think } from './turns.ts';

type ErrorEventBody = EventBody & { code: string; detail: string };

/** An agent that makes the same call again and again. */
const REPEATING = { repeat_last: true, turns: [think('Same thought, again.')] };

describe('run limits', () => {
  it('stops with MaxIterationsReached after max_iterations steps', async () => {
    const { server, llm } = await startStack({
      repeat_last: true,
      turns: [think('First.'), think('Second.'), think('And so on.')],
    });
    const created = await server.startConversation(llm, { message: 'Never stop.', extra: { max_iterations: 2 } });
    const events = await server.settledEvents(created.id, 'error');
    expect(outline(events)).toEqual([
      ...OPENING,
      'ActionEvent:think',
      'ObservationEvent:ThinkObservation',
      'ActionEvent:think',
      'ObservationEvent:ThinkObservation',
      'ConversationErrorEvent',
      'status:error',
    ]);
    const [error] = ofKind<ErrorEventBody>(events, 'ConversationErrorEvent');
    expect(error).toMatchObject({ source: 'environment', code: 'MaxIterationsReached' });
    expect(error?.detail).toContain('2');
    await sleep(200);
    expect(await recordedRequests(llm)).toHaveLength(2);
  });

  it('stops as stuck when the agent repeats the same call with the same result', async () => {
    const { server, llm } = await startStack(REPEATING);
    const created = await server.startConversation(llm, { message: 'Loop forever.' });
    const events = await server.settledEvents(created.id, 'stuck');
    const round = ['ActionEvent:think', 'ObservationEvent:ThinkObservation'];
    expect(outline(events)).toEqual([
      ...OPENING,
      ...round,
      ...round,
      ...round,
      ...round,
      'ConversationErrorEvent',
      'status:stuck',
    ]);
    const [error] = ofKind<ErrorEventBody>(events, 'ConversationErrorEvent');
    expect(error).toMatchObject({ source: 'environment', code: 'StuckDetected' });
    expect(error?.detail).toMatch(/same action/);
    await sleep(200);
    expect(await recordedRequests(llm)).toHaveLength(4);
  });

  it('does not stop a repeating agent when stuck_detection is off (max_iterations still applies)', async () => {
    const { server, llm } = await startStack(REPEATING);
    const created = await server.startConversation(llm, {
      message: 'Loop forever.',
      extra: { stuck_detection: false, max_iterations: 6 },
    });
    await server.waitForStatus(created.id, 'error');
    const events = await server.allEvents(created.id);
    expect(ofKind(events, 'ObservationEvent')).toHaveLength(6);
    expect(ofKind<ErrorEventBody>(events, 'ConversationErrorEvent').map((e) => e.code)).toEqual([
      'MaxIterationsReached',
    ]);
  });
});
