import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import type { IncomingEvent } from '../../src/data/index.ts';
import { describeEachDatabase } from '../support/databases.ts';

const event = (index: number, id: string = randomUUID()): IncomingEvent => ({
  id,
  kind: index % 2 === 0 ? 'PauseEvent' : 'MessageEvent',
  timestamp: new Date(Date.UTC(2026, 0, 1, 0, 0, index)).toISOString(),
  source: 'user',
  json: JSON.stringify({ id, index }),
});

describeEachDatabase('the event store', (each) => {
  it('numbers events 1, 2, ... with no gap, skips known ids, and survives writers racing', async () => {
    const { repositories } = await each.shared();
    const user = await repositories.users.create();
    const id = randomUUID();
    const now = new Date().toISOString();
    await repositories.conversations.insert([
      { id, user_id: user.id, org_id: null, sandbox_id: null, title: null, created_at: now, updated_at: now },
    ]);
    const shared = event(0);
    // Ten writers at once (as replicas would), each with events of its own and one they all deliver.
    const batches = Array.from({ length: 10 }, (_, writer) => [
      shared,
      ...Array.from({ length: 30 }, (_, index) => event(writer * 100 + index)),
    ]);
    const stored = await Promise.all(batches.map((batch) => repositories.events.append(id, user.id, batch)));
    expect(stored.flat()).toHaveLength(1 + 10 * 30);
    const rows = await repositories.events.page(user.id, id, { descending: false, limit: 1000 });
    expect(rows.map((row) => row.seq)).toEqual(rows.map((_, index) => index + 1));
    expect(new Set(rows.map((row) => row.event_id)).size).toBe(rows.length);
    // Each writer's events stay together and in its order.
    for (const batch of batches) {
      const seqs = batch.slice(1).map((item) => rows.find((row) => row.event_id === item.id)?.seq as number);
      expect(seqs).toEqual(seqs.map((_, index) => (seqs[0] as number) + index));
    }
    expect(await repositories.events.append(id, user.id, [shared])).toEqual([]);
    expect(await repositories.events.last(id)).toEqual({ seq: 301, event_id: rows.at(-1)?.event_id });
    expect(await repositories.events.count(user.id, id, { kind: 'PauseEvent' })).toBe(1 + 10 * 15);
    const other = await repositories.users.create();
    expect(await repositories.events.count(other.id, id, {})).toBe(0);
    expect(await repositories.events.page(other.id, id, { descending: false, limit: 10 })).toEqual([]);
  });
});
