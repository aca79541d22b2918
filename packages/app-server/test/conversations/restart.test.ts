import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import { MemoryCache } from '../../src/cache/index.ts';
import type { ConversationDeps } from '../../src/conversations/deps.ts';
import { StartTasks } from '../../src/conversations/start-tasks.ts';
import { RESTARTED, TaskLeases } from '../../src/conversations/task-leases.ts';
import { describeEachDatabase } from '../support/databases.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describeEachDatabase('start tasks across a restart of the app', (each) => {
  it('a start nobody runs any more is ERROR when the app starts; finished ones are kept as they were', async () => {
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
    const deps = { repositories, cache, log: console } as unknown as ConversationDeps;
    // Live starts of another replica: their runner touched them within the lease, they are left to it.
    await (await StartTasks.open(deps)).close();
    const live = await repositories.startTasks.getMany(user.id, [tasks[0]?.id as string]);
    expect(live[0]).toMatchObject({ status: 'WORKING', detail: null });
    // Past the lease (0 here): nobody runs them.
    await (await StartTasks.open(deps, { heartbeatMs: 10, leaseMs: 0 })).close();
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

describeEachDatabase('start task leases', (each) => {
  it('a task its runner touches stays its own; one left alone is settled by the sweep, not only at open', async () => {
    const { repositories } = await each.shared();
    const user = await repositories.users.create();
    const create = () =>
      repositories.startTasks.create({ id: randomUUID(), userId: user.id, status: 'WORKING', request: '{}' });
    const [kept, left] = [await create(), await create()];
    const log = { error: () => undefined };
    const leases = await TaskLeases.open(repositories.startTasks, log, { heartbeatMs: 50, leaseMs: 400 });
    const release = leases.keep(kept.id);
    const statusOf = async (id: string) => (await repositories.startTasks.getMany(user.id, [id]))[0]?.status;
    const deadline = Date.now() + 10_000;
    while ((await statusOf(left.id)) !== 'ERROR' && Date.now() < deadline) await sleep(50);
    expect(await statusOf(left.id)).toBe('ERROR');
    expect(await statusOf(kept.id)).toBe('WORKING');
    release();
    leases.close();
  });
});
