import { describe, expect, it } from 'vitest';
import { newEventId } from '../src/conversations/event-id.ts';

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('newEventId', () => {
  // More ids than one block of pooled random bytes holds, most of them within the same millisecond.
  const ids = Array.from({ length: 2000 }, () => newEventId());

  it('makes UUIDv7s', () => {
    for (const id of ids) expect(id).toMatch(UUID_V7);
  });

  it('never repeats one', () => {
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('sorts them in the order they were made, within a millisecond too', () => {
    expect([...ids].sort()).toEqual(ids);
  });

  it('carries the time it was made', () => {
    const before = Date.now();
    const id = newEventId();
    const msecs = Number.parseInt(id.replace(/-/g, '').slice(0, 12), 16);
    expect(msecs).toBeGreaterThanOrEqual(before);
    expect(msecs).toBeLessThanOrEqual(Date.now() + 1);
  });
});
