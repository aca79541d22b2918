import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import { MemoryCache } from '../../src/cache/index.ts';
import type { ConversationDeps } from '../../src/conversations/deps.ts';
import { StartTasks } from '../../src/conversations/start-tasks.ts';
import { TaskLeases } from '../../src/conversations/task-leases.ts';
import { MAX_TAKEOVERS, TRIED_TOO_OFTEN, UNREADABLE } from '../../src/conversations/task-takeover.ts';
import { KeyRing, type Repositories, createRepositories, newSecretsKey } from '../../src/data/index.ts';
import { describeEachDatabase } from '../support/databases.ts';
import { until } from '../support/until.ts';

const log = { error: () => undefined };

/** `count` WORKING tasks of a new user, their start sealed, as their runner left them a minute ago. */
async function abandonedTasks(repositories: Repositories, count: number): Promise<string[]> {
  const user = await repositories.users.create();
  const ids: string[] = [];
  for (let index = 0; index < count; index += 1) {
    const runner = randomUUID();
    const task = await repositories.startTasks.create({
      id: randomUUID(),
      userId: user.id,
      status: 'WAITING_FOR_SANDBOX',
      request: '{}',
      conversationId: randomUUID(),
      runner,
      start: JSON.stringify({ request: {}, orgId: null }),
    });
    ids.push(task.id);
  }
  return ids;
}

describeEachDatabase('start task takeovers by the sweep', (each) => {
  it('two replicas sweeping at once never both take one task over', async () => {
    const target = await each.target();
    const keyRing = new KeyRing(newSecretsKey());
    const database = await each.open({ target, keyRing });
    const replicas = [
      createRepositories(database, keyRing),
      createRepositories(await each.open({ target, keyRing }), keyRing),
    ];
    const ids = await abandonedTasks(replicas[0] as Repositories, 16);
    const aMinuteAgo = new Date(Date.now() - 60_000).toISOString();
    await database.db.updateTable('app_conversation_start_tasks').set({ updated_at: aMinuteAgo }).execute();
    const claims: { taskId: string; runner: string; replica: number }[] = [];
    const lease = { heartbeatMs: 1_000, leaseMs: 30_000 };
    const sweepers = await Promise.all(
      replicas.map((repositories, replica) =>
        TaskLeases.open(repositories.startTasks, log, lease, (taskId, runner) =>
          claims.push({ taskId, runner, replica }),
        ),
      ),
    );
    // Each opening swept once: every task is claimed, each by one replica only.
    expect(claims.map((claim) => claim.taskId).sort()).toEqual([...ids].sort());
    for (const { taskId, runner } of claims) {
      expect(await replicas[0]?.startTasks.getOfAnyUser(taskId)).toMatchObject({ runner, takeovers: 1 });
    }
    for (const sweeper of sweepers) sweeper.close();
  });

  it(`a task taken over ${MAX_TAKEOVERS} times, its runner stopping each time, ends ERROR saying so`, async () => {
    const { repositories } = await each.shared();
    const [taskId] = await abandonedTasks(repositories, 1);
    // Each replica that takes it over stops at once: it never touches the task.
    const claims: string[] = [];
    const leases = await TaskLeases.open(repositories.startTasks, log, { heartbeatMs: 10, leaseMs: 150 }, (id) => {
      if (id === taskId) claims.push(id);
    });
    try {
      const task = await until(
        () => repositories.startTasks.getOfAnyUser(taskId as string),
        (row) => row?.status === 'ERROR',
        'the task to end',
      );
      expect(task).toMatchObject({ detail: TRIED_TOO_OFTEN, takeovers: MAX_TAKEOVERS, sealed: null, key_id: null });
      expect(claims).toHaveLength(MAX_TAKEOVERS);
      expect(TRIED_TOO_OFTEN).toContain(`tried ${MAX_TAKEOVERS} times more`);
    } finally {
      leases.close();
    }
  });
});

describeEachDatabase('start task takeovers that cannot run', (each) => {
  it('a task whose sealed start does not open (its key is gone) ends ERROR saying so', async () => {
    const target = await each.target();
    const keyRing = new KeyRing(newSecretsKey());
    const database = await each.open({ target, keyRing });
    const [taskId] = await abandonedTasks(createRepositories(database, keyRing), 1);
    const aMinuteAgo = new Date(Date.now() - 60_000).toISOString();
    await database.db.updateTable('app_conversation_start_tasks').set({ updated_at: aMinuteAgo }).execute();
    // A replica with another key: what was sealed does not open there.
    const repositories = createRepositories(database, new KeyRing(newSecretsKey()));
    const errors: string[] = [];
    const note = (_: object, message: string) => errors.push(message);
    const deps = { repositories, cache: new MemoryCache(), log: { warn: note, error: note } };
    const tasks = await StartTasks.open(deps as unknown as ConversationDeps, { heartbeatMs: 50, leaseMs: 30_000 });
    try {
      const task = await until(
        () => repositories.startTasks.getOfAnyUser(taskId as string),
        (row) => row?.status === 'ERROR',
        'the task to end',
      );
      expect(task).toMatchObject({ detail: UNREADABLE, takeovers: 1, sealed: null, key_id: null });
      expect(errors).toContain('start task: its sealed request does not open');
    } finally {
      await tasks.close();
    }
  });
});
