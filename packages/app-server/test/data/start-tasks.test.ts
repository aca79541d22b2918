import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { expect, it } from 'vitest';
import { KeyRing, createRepositories, newSecretsKey } from '../../src/data/index.ts';
import type { StartTasksRepository } from '../../src/data/repositories/start-tasks.ts';
import { leaseExpiry } from '../../src/data/row-leases.ts';
import type { Tables } from '../../src/data/tables.ts';
import { describeEachDatabase } from '../support/databases.ts';

const SECRET = 'deploy-key-plaintext-marker';
const START = JSON.stringify({ request: { secrets: { DEPLOY_KEY: SECRET } }, orgId: null });
/** The lease of the tests: a task untouched for 30 s is abandoned. */
const staleBefore = () => leaseExpiry(30_000);

/** As if its runner stopped a minute ago: nobody touched the task since. */
async function abandon(db: Kysely<Tables>, ...ids: string[]) {
  const aMinuteAgo = new Date(Date.now() - 60_000).toISOString();
  await db.updateTable('app_conversation_start_tasks').set({ updated_at: aMinuteAgo }).where('id', 'in', ids).execute();
}

/** A WORKING task of `userId` held by `runner`, its start sealed. */
async function sealedTask(tasks: StartTasksRepository, userId: string, runner = randomUUID()) {
  const task = await tasks.create({
    id: randomUUID(),
    userId,
    status: 'WORKING',
    request: '{}',
    conversationId: randomUUID(),
    runner,
    start: START,
  });
  return { task, runner };
}

describeEachDatabase('start tasks: sealed requests and takeovers', (each) => {
  it('keeps the start sealed (not readable in the database), opens it, erases it once READY or ERROR', async () => {
    const { repositories, database } = await each.shared();
    const tasks = repositories.startTasks;
    const user = await repositories.users.create();
    const ready = await sealedTask(tasks, user.id);
    const raw = await database.db
      .selectFrom('app_conversation_start_tasks')
      .selectAll()
      .where('id', '=', ready.task.id)
      .executeTakeFirstOrThrow();
    expect(raw.sealed).toMatch(/^v1\./);
    expect(JSON.stringify(raw)).not.toContain(SECRET);
    expect(JSON.stringify(raw)).not.toContain('DEPLOY_KEY');
    expect(tasks.unseal(raw)).toBe(START);
    // Bound to its row: another task's sealed start does not open as this one's.
    const other = await sealedTask(tasks, user.id);
    expect(() => tasks.unseal({ ...raw, id: other.task.id })).toThrow(/does not authenticate/);

    const settledBy = [
      () => tasks.updateAsRunner(ready.task.id, ready.runner, { status: 'READY' }),
      () => tasks.update(other.task.id, { status: 'ERROR', detail: 'it failed' }),
    ];
    for (const settle of settledBy) await settle();
    for (const id of [ready.task.id, other.task.id]) {
      const row = await tasks.getOfAnyUser(id);
      expect(row).toMatchObject({ key_id: null, sealed: null });
      expect(JSON.stringify(row)).not.toContain(SECRET);
    }
    const stale = await sealedTask(tasks, user.id);
    await abandon(database.db, stale.task.id);
    expect(await tasks.settleUnfinished('tried too often', staleBefore(), 0)).toBe(1);
    expect(await tasks.getOfAnyUser(stale.task.id)).toMatchObject({ status: 'ERROR', sealed: null, key_id: null });
  });

  it('of two claimers of one abandoned task exactly one wins, over two connections, and keeps it', async () => {
    const target = await each.target();
    const keyRing = new KeyRing(newSecretsKey());
    const database = await each.open({ target, keyRing });
    const [a, b] = [
      createRepositories(database, keyRing),
      createRepositories(await each.open({ target, keyRing }), keyRing),
    ];
    const user = await a.users.create();
    const created = await Promise.all(Array.from({ length: 12 }, () => sealedTask(a.startTasks, user.id)));
    await abandon(database.db, ...created.map(({ task }) => task.id));
    expect((await b.startTasks.abandoned(staleBefore(), 100)).sort()).toEqual(
      created.map(({ task }) => task.id).sort(),
    );
    for (const { task, runner } of created) {
      const [first, second] = [randomUUID(), randomUUID()];
      const won = await Promise.all([
        a.startTasks.claim(task.id, first, staleBefore(), 2),
        b.startTasks.claim(task.id, second, staleBefore(), 2),
      ]);
      expect(won.filter(Boolean)).toHaveLength(1);
      const winner = won[0] ? first : second;
      const row = await a.startTasks.getOfAnyUser(task.id);
      expect(row).toMatchObject({ runner: winner, takeovers: 1, status: 'WORKING' });
      // The stopped runner's writes are refused; the winner's are made.
      expect(await a.startTasks.touch(task.id, runner)).toBe(false);
      expect(await a.startTasks.updateAsRunner(task.id, runner, { status: 'ERROR' })).toBeUndefined();
      expect(await b.startTasks.touch(task.id, winner)).toBe(true);
      expect(await b.startTasks.updateAsRunner(task.id, winner, { status: 'PREPARING_REPOSITORY' })).toMatchObject({
        status: 'PREPARING_REPOSITORY',
        runner: winner,
      });
      // Touched within its lease: not claimed again.
      expect(await a.startTasks.claim(task.id, randomUUID(), staleBefore(), 2)).toBe(false);
    }
  });

  it('claims only unfinished, untouched, sealed tasks taken over fewer times than allowed', async () => {
    const { repositories, database } = await each.shared();
    const tasks = repositories.startTasks;
    const user = await repositories.users.create();
    const unsealed = await tasks.create({ id: randomUUID(), userId: user.id, status: 'WORKING', request: '{}' });
    const finished = await sealedTask(tasks, user.id);
    await tasks.update(finished.task.id, { status: 'READY' });
    const { task } = await sealedTask(tasks, user.id);
    const left = await sealedTask(tasks, user.id);
    expect(await tasks.claim(task.id, randomUUID(), staleBefore(), 2)).toBe(false);
    await abandon(database.db, unsealed.id, finished.task.id, task.id);
    expect(await tasks.claim(unsealed.id, randomUUID(), staleBefore(), 2)).toBe(false);
    expect(await tasks.claim(finished.task.id, randomUUID(), staleBefore(), 2)).toBe(false);
    for (const _ of [1, 2]) {
      expect(await tasks.claim(task.id, randomUUID(), staleBefore(), 2)).toBe(true);
      await abandon(database.db, task.id);
    }
    expect(await tasks.claim(task.id, randomUUID(), staleBefore(), 2)).toBe(false);
    expect(await tasks.getOfAnyUser(task.id)).toMatchObject({ takeovers: 2, status: 'WORKING' });
    // Unsealed ones end with the first detail, those taken over too often with the second; live ones are left.
    expect(await tasks.settleUnfinished('nothing to run', staleBefore())).toBe(1);
    expect(await tasks.settleUnfinished('tried too often', staleBefore(), 2)).toBe(1);
    const [a, b, c] = await Promise.all([unsealed.id, task.id, left.task.id].map((id) => tasks.getOfAnyUser(id)));
    expect([a?.status, a?.detail]).toEqual(['ERROR', 'nothing to run']);
    expect([b?.status, b?.detail, b?.sealed]).toEqual(['ERROR', 'tried too often', null]);
    expect([c?.status, c?.detail]).toEqual(['WORKING', null]);
  });

  it('a sealed start is sealed again with a new key at open, and opens after the old key is dropped', async () => {
    const target = await each.target();
    const oldKey = newSecretsKey();
    const oldRing = new KeyRing(oldKey);
    const first = createRepositories(await each.open({ target, keyRing: oldRing }), oldRing);
    const user = await first.users.create();
    const { task } = await sealedTask(first.startTasks, user.id);
    const newKey = newSecretsKey();
    await each.open({ target, keyRing: new KeyRing(newKey, [oldKey]) });
    const rotated = new KeyRing(newKey);
    const third = createRepositories(await each.open({ target, keyRing: rotated }), rotated);
    const row = await third.startTasks.getOfAnyUser(task.id);
    expect(row?.key_id).toBe(rotated.currentKeyId);
    expect(third.startTasks.unseal(row as NonNullable<typeof row>)).toBe(START);
  });
});
