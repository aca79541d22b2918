import { buildMessages, cutPoints, llmView, planForgetting } from '@bosun/agent';
import type { Event, Message } from '@bosun/protocol';
import { describe, expect, it } from 'vitest';
import {
  actions,
  agentError,
  assistant,
  call,
  condensation,
  ids,
  observation,
  rejection,
  request,
  stats,
  system,
  user,
} from './fixtures.ts';

const text = (message: Message | undefined) =>
  (message?.content ?? []).map((block) => (block as { text?: string }).text ?? '').join('\n');

describe('llmView', () => {
  it('keeps only what the LLM reads, in log order', () => {
    const log = [system(), user('Go.', 'u'), stats(), ...call('c1'), stats(), assistant('Done.', 'm')];
    expect(ids(llmView(log).events)).toEqual(['sys', 'u', 'c1-action', 'c1-obs', 'm']);
  });

  it('drops forgotten events and inserts the summary at summary_offset, with id <condensation id>-summary', () => {
    const log = [system(), user('Go.', 'u'), ...call('c1'), ...call('c2'), ...call('c3')];
    const cond = condensation('k1', ['c1-action', 'c1-obs', 'c2-action', 'c2-obs'], 'Did c1 and c2.', 2);
    const { events } = llmView([...log, cond, ...call('c4')]);
    expect(ids(events)).toEqual(['sys', 'u', 'k1-summary', 'c3-action', 'c3-obs', 'c4-action', 'c4-obs']);
    expect(events[2]).toMatchObject({ kind: 'CondensationSummaryEvent', summary: 'Did c1 and c2.' });
  });

  it('inserts no summary without an offset or without a summary; clamps an offset past the end', () => {
    const log = [system(), user('Go.', 'u'), ...call('c1')];
    expect(ids(llmView([...log, condensation('k', ['c1-action', 'c1-obs'], 'S')]).events)).toEqual(['sys', 'u']);
    expect(ids(llmView([...log, condensation('k', ['c1-action', 'c1-obs'], undefined, 1)]).events)).toEqual([
      'sys',
      'u',
    ]);
    expect(ids(llmView([...log, condensation('k', ['u'], 'S', 99)]).events)).toEqual([
      'sys',
      'c1-action',
      'c1-obs',
      'k-summary',
    ]);
  });

  it('flags a CondensationRequest until the next Condensation', () => {
    const log = [system(), user('Go.', 'u'), ...call('c1')];
    expect(llmView(log).unhandledRequest).toBe(false);
    expect(llmView([...log, request()]).unhandledRequest).toBe(true);
    expect(llmView([...log, request(), condensation('k', ['c1-action', 'c1-obs'], 'S', 2)]).unhandledRequest).toBe(
      false,
    );
    expect(llmView([...log, request(), condensation('k', [], 'S', 2), request()]).unhandledRequest).toBe(true);
  });

  it('composes two condensations: the second forgets the first summary and puts its own in its place', () => {
    const head = [system(), user('Build it.', 'u')];
    const first = condensation('k1', ['c1-action', 'c1-obs', 'c2-action', 'c2-obs'], 'First summary.', 2);
    const second = condensation('k2', ['k1-summary', 'c3-action', 'c3-obs', 'c4-action', 'c4-obs'], 'Second.', 2);
    const log = [...head, ...call('c1'), ...call('c2'), ...call('c3'), first, ...call('c4'), ...call('c5'), second];
    const { events } = llmView([...log, user('More.', 'u2')]);
    expect(ids(events)).toEqual(['sys', 'u', 'k2-summary', 'c5-action', 'c5-obs', 'u2']);

    const messages = buildMessages([...log, user('More.', 'u2')]);
    expect(messages.map((m) => m.role)).toEqual(['system', 'user', 'user', 'assistant', 'tool', 'user']);
    expect(text(messages[2])).toBe('Second.');
    expect(messages[3]?.tool_calls?.map((c) => c.id)).toEqual(['c5']);
    expect(messages[4]?.tool_call_id).toBe('c5');
  });

  it('a later condensation can keep the earlier summary (it only forgets what it names)', () => {
    const first = condensation('k1', ['c1-action', 'c1-obs'], 'First.', 2);
    const second = condensation('k2', ['c2-action', 'c2-obs'], 'Second.', 3);
    const log = [system(), user('Go.', 'u'), ...call('c1'), first, ...call('c2'), ...call('c3'), second];
    expect(ids(llmView(log).events)).toEqual(['sys', 'u', 'k1-summary', 'k2-summary', 'c3-action', 'c3-obs']);
  });
});

describe('buildMessages with condensations', () => {
  it('sends the summary as a user message at its offset and no forgotten message', () => {
    const log = [system(), user('Fix the bug.', 'u'), ...call('c1'), ...call('c2'), ...call('c3')];
    const messages = buildMessages([
      ...log,
      condensation('k', ['c1-action', 'c1-obs', 'c2-action', 'c2-obs'], 'S.', 2),
    ]);
    expect(messages.map((m) => m.role)).toEqual(['system', 'user', 'user', 'assistant', 'tool']);
    expect(text(messages[1])).toBe('Fix the bug.');
    expect(text(messages[2])).toBe('S.');
    expect(JSON.stringify(messages)).not.toContain('c1');
  });
});

describe('cutPoints', () => {
  it('never separates the calls of one response from each other or from their results', () => {
    const view = [
      system(),
      user('Go.', 'u'),
      ...actions('r1', 'p1', 'p2', 'p3'),
      observation('p1'),
      rejection('p2'),
      agentError('p3'),
      user('Next.', 'u2'),
    ];
    //               sys  u    p1   p2   p3   o1   r2   e3   u2
    // cut before:   0    1    2    3    4    5    6    7    8    9
    expect(cutPoints(view)).toEqual([true, true, true, false, false, false, false, false, true, true]);
  });

  it('keeps a user message logged between a call and its result inside the unit', () => {
    const view = [...actions('r1', 'c1'), user('While you work...', 'u'), observation('c1'), user('Then.', 'u2')];
    expect(cutPoints(view)).toEqual([true, false, false, true, true]);
  });

  it('extends a unit with a call still waiting for its result to the end', () => {
    const view = [user('Go.', 'u'), ...actions('r1', 'c1', 'c2'), observation('c1'), user('Later.', 'u2')];
    expect(cutPoints(view)).toEqual([true, true, false, false, false, true]);
  });

  it('ignores results whose call is not in the view', () => {
    const view = [user('Go.', 'u'), observation('gone'), user('Then.', 'u2')];
    expect(cutPoints(view)).toEqual([true, true, true, true]);
  });
});

describe('planForgetting', () => {
  const conversation = (): Event[] => [
    system(),
    user('Go.', 'u'),
    ...call('c1'),
    ...call('c2'),
    ...call('c3'),
    ...call('c4'),
    ...call('c5'),
  ];
  /** The system prompt, a user message, then parallel calls p1 and p2 and their results (p2's given). */
  const parallel = (p2Result = observation('p2')): Event[] => [
    system(),
    user('Go.', 'u'),
    ...actions('r1', 'p1', 'p2'),
    observation('p1'),
    p2Result,
  ];

  it('forgets the middle between the first keepFirst and the last keepLast events', () => {
    const plan = planForgetting(conversation(), { keepFirst: 2, keepLast: 4 });
    expect(ids(plan?.forgotten ?? [])).toEqual(['c1-action', 'c1-obs', 'c2-action', 'c2-obs', 'c3-action', 'c3-obs']);
    expect(plan?.summaryOffset).toBe(2);
  });

  it('moves the head past a unit it would split, and keeps the whole unit', () => {
    const plan = planForgetting(conversation(), { keepFirst: 3, keepLast: 2 });
    expect(plan?.summaryOffset).toBe(4);
    expect(ids(plan?.forgotten ?? [])).toEqual(['c2-action', 'c2-obs', 'c3-action', 'c3-obs', 'c4-action', 'c4-obs']);
  });

  it('moves the tail back to the start of a unit it would split (keeping more, never an orphan result)', () => {
    const plan = planForgetting(conversation(), { keepFirst: 2, keepLast: 3 });
    expect(ids(plan?.forgotten ?? [])).toEqual(['c1-action', 'c1-obs', 'c2-action', 'c2-obs', 'c3-action', 'c3-obs']);
  });

  it('forgets parallel calls and all their results together', () => {
    const view = [...parallel(agentError('p2')), ...call('c1'), ...call('c2')];
    const plan = planForgetting(view, { keepFirst: 2, keepLast: 3 });
    expect(ids(plan?.forgotten ?? [])).toEqual(['p1-action', 'p2-action', 'p1-obs', 'p2-error']);
  });

  it('always keeps the system prompt, even with keepFirst 0', () => {
    const plan = planForgetting(conversation(), { keepFirst: 0, keepLast: 2 });
    expect(plan?.summaryOffset).toBe(1);
    expect(plan?.forgotten[0]?.id).toBe('u');
  });

  it('forgets a whole trailing unit when keeping it would leave nothing to forget', () => {
    const plan = planForgetting(parallel(), { keepFirst: 2, keepLast: 1 });
    expect(ids(plan?.forgotten ?? [])).toEqual(['p1-action', 'p2-action', 'p1-obs', 'p2-obs']);
  });

  it('returns undefined when nothing can be forgotten', () => {
    expect(planForgetting([system(), user('Go.', 'u')], { keepFirst: 4, keepLast: 0 })).toBeUndefined();
    expect(planForgetting(conversation(), { keepFirst: 2, keepLast: 10 })).toBeUndefined();
  });

  it('a plan applied as a Condensation leaves a view whose messages have no orphan call or result', () => {
    const view = [...parallel(), ...call('c1'), ...call('c2')];
    for (let keepFirst = 0; keepFirst < view.length; keepFirst++) {
      for (let keepLast = 0; keepLast < view.length; keepLast++) {
        const plan = planForgetting(view, { keepFirst, keepLast });
        if (!plan) continue;
        const cond = condensation('k', ids(plan.forgotten) as string[], 'S.', plan.summaryOffset);
        const messages = buildMessages([...view, cond]);
        const calls = new Set(messages.flatMap((m) => m.tool_calls?.map((c) => c.id) ?? []));
        const results = messages.filter((m) => m.role === 'tool').map((m) => m.tool_call_id);
        expect(
          results.every((id) => calls.has(id as string)),
          `${keepFirst}/${keepLast}`,
        ).toBe(true);
        expect(
          [...calls].every((id) => results.includes(id)),
          `${keepFirst}/${keepLast}`,
        ).toBe(true);
        expect(JSON.stringify(messages)).not.toContain('interrupted');
      }
    }
  });
});
