import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import { MemoryCache } from '../../src/cache/index.ts';
import type { ConversationDeps } from '../../src/conversations/deps.ts';
import { RESTARTED, StartTasks } from '../../src/conversations/start-tasks.ts';
import { describeEachDatabase } from '../support/databases.ts';

describeEachDatabase('start tasks across a restart of the app', (each) => {
  it('a start left unfinished is ERROR when the app starts again; finished ones are kept as they were', async () => {
    const { repositories } = await each.shared();
    const user = await repositories.users.create();
    const statuses = [
      'WORKING',
      'WAITING_FOR_SANDBOX',
      'PREPARING_REPOSITORY',
      'STARTING_CONVERSATION',
      'READY',
      'ERROR',
    ];
    const tasks = [];
    for (const status of statuses) {
      const task = await repositories.startTasks.create({ id: randomUUID(), userId: user.id, status, request: '{}' });
      if (status === 'ERROR') await repositories.startTasks.update(task.id, { detail: 'it failed before' });
      tasks.push(task);
    }
    const cache = new MemoryCache();
    // Opening is what a starting app does; it reads and writes only the tasks.
    const deps = { repositories, cache } as unknown as ConversationDeps;
    await (await StartTasks.open(deps)).close();
    const after = await repositories.startTasks.getMany(
      user.id,
      tasks.map((task) => task.id),
    );
    const byId = new Map(after.map((task) => [task.id, task]));
    expect(tasks.map((task) => [byId.get(task.id)?.status, byId.get(task.id)?.detail])).toEqual([
      ['ERROR', RESTARTED],
      ['ERROR', RESTARTED],
      ['ERROR', RESTARTED],
      ['ERROR', RESTARTED],
      ['READY', null],
      ['ERROR', 'it failed before'],
    ]);
    await cache.close();
  });
});
