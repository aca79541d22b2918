import { parseCriticAnswer } from '@bosun/agent';
import { describe, expect, it } from 'vitest';

/** The answer the critic gave: its score clamped to 0..1, its message, and the score as it was given. */
const answer = (score: number, message: string, rawScore = score) => ({ ok: true, score, message, rawScore });

describe('parseCriticAnswer', () => {
  it('reads a strict JSON answer', () => {
    expect(parseCriticAnswer('{"score": 0.8, "message": "Right command."}')).toEqual(answer(0.8, 'Right command.'));
    expect(parseCriticAnswer('  {"score": 0, "message": "Wrong file."}\n')).toMatchObject({ ok: true, score: 0 });
    expect(parseCriticAnswer('{"score": 1, "message": "ok"}')).toMatchObject({ ok: true, score: 1 });
  });

  it('tolerates one code fence around the object, and ignores other keys', () => {
    expect(parseCriticAnswer('```json\n{"score": 0.5, "message": "Maybe."}\n```')).toMatchObject({
      ok: true,
      score: 0.5,
      message: 'Maybe.',
    });
    expect(parseCriticAnswer('```\n{"score": 0.25, "message": "Hm."}\n```')).toMatchObject({ ok: true, score: 0.25 });
    expect(parseCriticAnswer('{"score": 0.9, "message": "Good.", "confidence": "high"}')).toMatchObject({
      ok: true,
      score: 0.9,
    });
  });

  it('a missing or null message is null', () => {
    expect(parseCriticAnswer('{"score": 0.7}')).toMatchObject({ ok: true, message: null });
    expect(parseCriticAnswer('{"score": 0.7, "message": null}')).toMatchObject({ ok: true, message: null });
  });

  it('clamps scores outside 0..1 and keeps the raw score', () => {
    expect(parseCriticAnswer('{"score": 1.7, "message": "Great."}')).toEqual(answer(1, 'Great.', 1.7));
    expect(parseCriticAnswer('{"score": -3, "message": "Harmful."}')).toMatchObject({
      ok: true,
      score: 0,
      rawScore: -3,
    });
    expect(parseCriticAnswer('{"score": 85, "message": "On a 100 scale."}')).toMatchObject({ score: 1 });
  });

  it.each([
    [null, 'no text'],
    ['', 'no text'],
    ['   ', 'no text'],
    ['The action looks fine. Score: 0.9', 'not JSON'],
    ['Here it is: {"score": 0.9, "message": "ok"}', 'not JSON'],
    ['{"score": 0.9, "message": "ok"', 'not JSON'],
    ['[0.9, "ok"]', 'not a JSON object'],
    ['0.9', 'not a JSON object'],
    ['null', 'not a JSON object'],
    ['{"message": "ok"}', 'no numeric score'],
    ['{"score": "0.9", "message": "ok"}', 'no numeric score'],
    ['{"score": null, "message": "ok"}', 'no numeric score'],
    ['{"score": 0.9, "message": 42}', 'message is not a string'],
  ])('fails on %j (%s)', (text, why) => {
    const answer = parseCriticAnswer(text);
    expect(answer.ok).toBe(false);
    if (!answer.ok) expect(answer.reason).toContain(why);
  });

  it('quotes at most 200 characters of a bad answer in the reason', () => {
    const answer = parseCriticAnswer(`x${'y'.repeat(1000)}`);
    expect(answer.ok).toBe(false);
    if (!answer.ok) expect(answer.reason.length).toBeLessThan(300);
  });
});
