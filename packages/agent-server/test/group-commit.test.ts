import { describe, expect, it } from 'vitest';
import { ConversationService } from '../src/conversations/service.ts';
import { type CatalogRow, Store } from '../src/store/store.ts';
import { resolvedStartRequest, serviceOnDiskPerTest } from './support/service-on-disk.ts';

/*
 * The store's group commit on a real SQLite file: what is queued together is one transaction and one fsync, and
 * nothing a batch wrote is readable, published or acknowledged before that fsync is done.
 */
const disk = serviceOnDiskPerTest('bosun-group-commit-');
const { newConversation } = disk;

function note(text: string) {
  return {
    kind: 'ConversationStateUpdateEvent' as const,
    source: 'environment' as const,
    key: 'note',
    value: text,
  };
}

/** Resolves after the store's scheduled flush has run (it was scheduled first), before any fsync can finish. */
const afterFlush = () => new Promise((resolve) => setImmediate(resolve));

describe('group commit', () => {
  it('commits appends to many conversations, queued together, in one batch', async () => {
    const conversations = await Promise.all(Array.from({ length: 5 }, () => newConversation()));
    const before = disk.store.batchesCommitted;
    await Promise.all(conversations.flatMap((c) => [c.append([note('a')]), c.append([note('b')])]));
    expect(disk.store.batchesCommitted - before).toBe(1);
    for (const c of conversations) expect(disk.store.countEvents(c.id, {})).toBe(2);
  });

  it('puts what is queued while a batch syncs into the next batch, all together', async () => {
    const [a, b, c] = await Promise.all([newConversation(), newConversation(), newConversation()]);
    const before = disk.store.batchesCommitted;
    const first = a.append([note('first')]);
    await afterFlush();
    const rest = [b.append([note('second')]), c.append([note('third')]), a.append([note('fourth')])];
    await Promise.all([first, ...rest]);
    expect(disk.store.batchesCommitted - before).toBe(2);
    expect(a.lastSeq).toBe(2);
  });

  it('neither reads back, publishes nor acknowledges an append before its batch is synced', async () => {
    const conversation = await newConversation();
    const published: number[] = [];
    conversation.subscribe((events) => published.push(...events.map((e) => e.seq)));
    let acknowledged = false;
    const appended = conversation
      .append([note('pending')], (record) => {
        record.title = 'changed';
      })
      .then((events) => {
        acknowledged = true;
        return events;
      });
    await afterFlush();
    // Committed to SQLite by now, but its fsync has not finished.
    expect(
      disk.store.db.prepare('SELECT count(*) AS n FROM events WHERE conversation_id = ?').get(conversation.id),
    ).toEqual({ n: 1 });
    expect(acknowledged).toBe(false);
    expect(published).toEqual([]);
    expect(conversation.lastSeq).toBe(0);
    expect(conversation.record.title).toBeNull();
    expect(disk.store.searchEvents(conversation.id, { descending: false, limit: 10 })).toEqual([]);
    expect(disk.store.countEvents(conversation.id, {})).toBe(0);

    const [event] = await appended;
    expect(published).toEqual([1]);
    expect(conversation.record.title).toBe('changed');
    expect(disk.store.eventJsonById(conversation.id, event?.id as string)).toBeDefined();
    expect(disk.store.searchEvents(conversation.id, { descending: false, limit: 10 }).map((e) => e.seq)).toEqual([1]);
  });

  it('does not find a conversation before its creation is synced', async () => {
    const id = '0192f6a4-5b6c-7d8e-9f00-112233445566';
    const created = disk.service.create({ ...resolvedStartRequest(), conversation_id: id });
    await afterFlush();
    expect(disk.store.getConversation(id)).toBeUndefined();
    expect(disk.service.get(id)).toBeUndefined();
    expect((await created).created).toBe(true);
    expect(disk.service.get(id)?.id).toBe(id);
  });

  it('creates a conversation and what is written while preparing it with one fsync, visible only then', async () => {
    const id = '0192f6a4-5b6c-7d8e-9f00-aabbccddeeff';
    const before = disk.store.syncsDone;
    const { conversation, created } = await disk.service.create(
      { ...resolvedStartRequest(), conversation_id: id },
      async (c) => {
        await c.append([note('system prompt')]);
        await c.update((record) => {
          record.title = 'prepared';
        });
        await c.append([note('report')]);
        expect(disk.service.get(id)).toBeUndefined();
        expect(disk.store.getConversation(id)).toBeUndefined();
      },
    );
    expect(created).toBe(true);
    expect(disk.store.syncsDone - before).toBe(1);
    expect(disk.service.get(id)).toBe(conversation);
    expect(conversation.lastSeq).toBe(2);
    expect(disk.store.getConversation(id)?.title).toBe('prepared');
    expect(disk.store.searchEvents(id, { descending: false, limit: 10 }).map((e) => e.seq)).toEqual([1, 2]);
  });

  it('keeps a conversation being created invisible when other writes are synced meanwhile', async () => {
    const other = await newConversation();
    const id = '0192f6a4-5b6c-7d8e-9f00-000000000002';
    let seenWhilePreparing: unknown = 'not checked';
    await disk.service.create({ ...resolvedStartRequest(), conversation_id: id }, async (c) => {
      await c.append([note('system prompt')]);
      await other.append([note('unrelated, durable')]);
      seenWhilePreparing = disk.service.get(id);
    });
    expect(seenWhilePreparing).toBeUndefined();
    expect(disk.service.get(id)?.lastSeq).toBe(1);
  });

  it('answers a second create of an id being created with the first one', async () => {
    const id = '0192f6a4-5b6c-7d8e-9f00-000000000001';
    let prepared = 0;
    const prepare = async () => {
      prepared++;
    };
    const [first, second] = await Promise.all([
      disk.service.create({ ...resolvedStartRequest(), conversation_id: id }, prepare),
      disk.service.create({ ...resolvedStartRequest(), conversation_id: id }, prepare),
    ]);
    expect([first.created, second.created]).toEqual([true, false]);
    expect(second.conversation).toBe(first.conversation);
    expect(prepared).toBe(1);
  });

  it('fails a write that throws alone: the rest of its batch commits, without gaps in the sequence', async () => {
    const conversation = await newConversation();
    const duplicate = disk.store.enqueue({
      apply: () => disk.store.insertConversationSql(disk.store.getConversation(conversation.id) as CatalogRow),
    });
    const appended = conversation.append([note('one')]);
    const next = conversation.append([note('two')]);
    await expect(duplicate).rejects.toThrow(/UNIQUE|PRIMARY KEY/);
    await Promise.all([appended, next]);
    expect(disk.store.searchEvents(conversation.id, { descending: false, limit: 10 }).map((e) => e.seq)).toEqual([
      1, 2,
    ]);
  });

  it('writes the catalog row of a conversation changed many times in a batch from its last change', async () => {
    const conversation = await newConversation();
    const before = disk.store.batchesCommitted;
    await Promise.all(
      ['a', 'b', 'c'].map((title) =>
        conversation.append([note(title)], (record) => {
          record.title = title;
        }),
      ),
    );
    expect(disk.store.batchesCommitted - before).toBe(1);
    const row = disk.store.getConversation(conversation.id);
    expect(row?.title).toBe('c');
    expect(row?.last_seq).toBe(3);
    expect(JSON.parse(row?.data as string).title).toBe('c');
  });

  it('counts last_seq from the log when a write of the batch fails', async () => {
    const conversation = await newConversation();
    const [first] = await conversation.append([note('first')]);
    const duplicate = conversation.append([note('ok'), { ...note('same id'), id: first?.id }], (record) => {
      record.title = 'never';
    });
    const after = conversation.append([note('after')]);
    await expect(duplicate).rejects.toThrow(/UNIQUE/);
    await after;
    expect(conversation.lastSeq).toBe(2);
    expect(conversation.record.title).toBeNull();
    const row = disk.store.getConversation(conversation.id);
    expect(row?.last_seq).toBe(2);
    expect(JSON.parse(row?.data as string).title).toBeNull();
  });

  it('commits and syncs what is queued when the store closes', async () => {
    const conversation = await newConversation();
    const appended = conversation.append([note('last words')]);
    await disk.service.close();
    disk.store.close();
    await expect(appended).resolves.toHaveLength(1);
    disk.store = new Store(disk.dataDir);
    disk.service = new ConversationService(disk.store, { idleTtlMs: 60_000 });
    expect(disk.store.countEvents(conversation.id, {})).toBe(1);
    expect(disk.service.get(conversation.id)?.lastSeq).toBe(1);
  });
});
