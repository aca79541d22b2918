import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import { describeEachDatabase } from '../support/databases.ts';

describeEachDatabase('a conversation’s model, ordered by the agent server’s time', (each) => {
  it('takes a model only as of a later time than what named it, in one update; never another user’s row', async () => {
    const { repositories } = await each.shared();
    const { conversations, users } = repositories;
    const [owner, stranger] = await Promise.all([users.create(), users.create()]);
    const id = randomUUID();
    const now = new Date().toISOString();
    await conversations.create({ id, user_id: owner.id, title: 't', created_at: now, updated_at: now });
    const named = async () => {
      const row = await conversations.get(owner.id, id);
      return { model: row?.llm_model, at: row?.llm_model_at, status: row?.execution_status, title: row?.title };
    };
    const T1 = '2026-05-01T10:00:00.001Z';
    const T2 = '2026-05-01T10:00:00.002Z';

    // Unordered reports name a model only while none was named in order.
    await conversations.updateWithModel(owner.id, id, {}, { name: 'unordered', at: null });
    expect(await named()).toMatchObject({ model: 'unordered', at: null });
    await conversations.updateWithModel(owner.id, id, { title: 'newer' }, { name: 'b', at: T2 });
    expect(await named()).toMatchObject({ model: 'b', at: T2, title: 'newer' });
    // Older, as old, or unordered: the model stays; what else the report says is kept.
    await conversations.updateWithModel(owner.id, id, { execution_status: 'idle' }, { name: 'a', at: T1 });
    await conversations.updateWithModel(owner.id, id, {}, { name: 'tie', at: T2 });
    await conversations.updateWithModel(owner.id, id, {}, { name: 'unordered', at: null });
    expect(await named()).toEqual({ model: 'b', at: T2, status: 'idle', title: 'newer' });
    await conversations.updateWithModel(stranger.id, id, { title: 'theirs' }, { name: 'theirs', at: '2027-01-01' });
    expect(await named()).toMatchObject({ model: 'b', at: T2, title: 'newer' });
    await conversations.updateWithModel(owner.id, id, {}, { name: 'c', at: '2026-05-01T10:00:01.000Z' });
    expect(await named()).toMatchObject({ model: 'c', at: '2026-05-01T10:00:01.000Z' });
  });
});
