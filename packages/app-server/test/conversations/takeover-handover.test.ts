import { randomUUID } from 'node:crypto';
import { type LlmReplay, startLlmReplay } from '@bosun/llm-replay';
import type { AppConversationStartRequest, StoredEvent } from '@bosun/protocol';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { ConversationDeps } from '../../src/conversations/deps.ts';
import { StartTasks } from '../../src/conversations/start-tasks.ts';
import { MAX_TAKEOVERS } from '../../src/conversations/task-takeover.ts';
import { KeyRing, createRepositories, newSecretsKey } from '../../src/data/index.ts';
import { gitUrlsOf } from '../../src/git/provider-urls.ts';
import { appServerConfig } from '../../src/index.ts';
import { SANDBOX_SPECS } from '../../src/sandboxes/index.ts';
import { withGitProviders } from '../../src/sandboxes/launch.ts';
import { type Api, type TestUser, describeApi } from '../api/harness.ts';
import { describeEachDatabase } from '../support/databases.ts';
import { until, untilSettled } from '../support/until.ts';
import { type HeldRemote, heldRemote } from './held-remote.ts';
import { replica } from './replica.ts';
import { agentOfConversation, eventsUntil } from './support.ts';

/**
 * A replica that closes hands its unfinished starts over at once: each run stops writing, and its task (no runner,
 * its lease aged past its end) is claimed by the next sweep of another replica, not a lease later, without counting
 * a takeover (its replica stopped on purpose).
 */

/** A lease no sweep here runs out of: a task another replica claims at once was handed over. */
const LONG_LEASE = { heartbeatMs: 1_000, leaseMs: 60_000 };

describeEachDatabase('start tasks handed over (their rows)', (each) => {
  it('only its runner hands a task over, and one taken over the most times is still claimed, not ended', async () => {
    const target = await each.target();
    const keyRing = new KeyRing(newSecretsKey());
    const database = await each.open({ target, keyRing });
    const { startTasks, users } = createRepositories(database, keyRing);
    const user = await users.create();
    const runner = randomUUID();
    const task = await startTasks.create({
      id: randomUUID(),
      userId: user.id,
      status: 'WAITING_FOR_SANDBOX',
      request: '{}',
      runner,
      start: JSON.stringify({ request: {}, orgId: null }),
    });
    const staleAt = new Date(0).toISOString();
    const staleBefore = new Date(Date.now() - 60_000).toISOString();
    // Handed over and claimed again as often as a task may be taken over: no takeover is counted.
    for (let takeover = 0; takeover < MAX_TAKEOVERS; takeover += 1) {
      await startTasks.release(task.id, runner, staleAt);
      expect(await startTasks.claim(task.id, runner, staleBefore, MAX_TAKEOVERS)).toBe(true);
    }
    expect(await startTasks.getOfAnyUser(task.id)).toMatchObject({ runner, takeovers: 0 });
    // Taken over the most times: a task its runner stopped touching would now end ERROR; one handed over is claimed.
    await database.db
      .updateTable('app_conversation_start_tasks')
      .set({ takeovers: MAX_TAKEOVERS })
      .where('id', '=', task.id)
      .execute();

    expect(await startTasks.release(task.id, randomUUID(), staleAt)).toBe(false);
    expect(await startTasks.release(task.id, runner, staleAt)).toBe(true);
    expect(await startTasks.getOfAnyUser(task.id)).toMatchObject({ runner: null, updated_at: staleAt });
    expect(await startTasks.release(task.id, runner, staleAt)).toBe(false);
    expect(await startTasks.settleUnfinished('tried too often', staleBefore, MAX_TAKEOVERS)).toBe(0);
    const next = randomUUID();
    expect(await startTasks.claim(task.id, next, staleBefore, MAX_TAKEOVERS)).toBe(true);
    expect(await startTasks.getOfAnyUser(task.id)).toMatchObject({ runner: next, takeovers: MAX_TAKEOVERS });
    // A task READY or ERROR is never handed over.
    await startTasks.updateAsRunner(task.id, next, { status: 'READY' });
    expect(await startTasks.release(task.id, next, staleAt)).toBe(false);
  });
});

let llm: LlmReplay;
let remote: HeldRemote;
beforeAll(async () => {
  llm = await startLlmReplay({ script: { turns: [{ content: 'Noted.', times: 100 }] } });
  remote = await heldRemote(['acme/slow']);
});
afterAll(async () => {
  await remote?.close();
  await llm?.close();
});

/** A replica of the app's start tasks over `api`'s sandboxes, cloning from the held remote. */
async function replicaTasks(api: Api, options: { takeOver?: boolean; graceMs?: number } = {}) {
  const { deps, logs } = await replica(api, { gitUrls: gitUrlsOf({ git_github_url: remote.url }) });
  return { tasks: await StartTasks.open(deps, LONG_LEASE, options), logs };
}

function textOf(event: StoredEvent): string {
  const { llm_message } = event as unknown as { llm_message: { content: { text?: string }[] } };
  return llm_message.content.map((item) => item.text ?? '').join('');
}

describeApi('start tasks handed over by a replica that closes', (api) => {
  let owner: TestUser;
  beforeAll(async () => {
    owner = await api().user({ llm_model: 'test-model', llm_base_url: llm.baseUrl, llm_api_key: 'llm-key' });
  });

  it('another replica claims the task at its first sweep, finishes it and delivers the queued messages', async () => {
    remote.hold();
    const a = await replicaTasks(api(), { takeOver: false, graceMs: 100 });
    const starter = { userId: owner.id, orgId: null };
    const request: AppConversationStartRequest = {
      selected_repository: 'acme/slow',
      initial_message: { role: 'user', content: [{ type: 'text', text: 'FIRST', cache_prompt: false }], run: true },
    };
    const task = await a.tasks.create(starter, request);
    a.tasks.run(task, starter, request);
    // A's start waits on the clone: the remote holds it.
    await until(
      async () => remote.waiting(),
      (waiting) => waiting > 0,
      'the clone to reach the remote',
      60_000,
    );
    const before = await api().repositories.startTasks.getOfAnyUser(task.id);
    expect(before).toMatchObject({ status: 'PREPARING_REPOSITORY', takeovers: 0 });
    const queued = await api().call(`/api/v1/conversations/task-${task.id}/pending-messages`, {
      method: 'POST',
      as: owner,
      body: { content: [{ type: 'text', text: 'SECOND' }] },
    });
    expect(queued.status, queued.text).toBe(201);

    await a.tasks.close();
    const handed = await api().repositories.startTasks.getOfAnyUser(task.id);
    expect(handed).toMatchObject({ status: 'PREPARING_REPOSITORY', runner: null, takeovers: 0 });
    expect(handed?.sealed).toMatch(/^v1\./);
    expect(a.logs.join('\n')).toMatch(/start task handed over/);
    // A's clone now fails: its run stops without writing (no ERROR), the task still handed over.
    remote.refuse();
    await until(
      async () => a.logs.join('\n'),
      (logs) => logs.includes('this run stops'),
      'the run of replica A to stop',
    );
    expect(await api().repositories.startTasks.getOfAnyUser(task.id)).toEqual(handed);

    remote.open();
    // Within B's lease of a minute: only a task handed over is claimed by the sweep B makes as it opens.
    const b = await replicaTasks(api());
    try {
      const claimed = await api().repositories.startTasks.getOfAnyUser(task.id);
      expect(claimed?.runner).not.toBeNull();
      const done = await untilSettled(
        () => api().repositories.startTasks.getOfAnyUser(task.id),
        'replica B to finish the start',
      );
      expect(done, done?.detail ?? '').toMatchObject({ status: 'READY', takeovers: 0, sealed: null });
      const conversationId = done?.app_conversation_id as string;
      const agent = await agentOfConversation(api(), owner, conversationId);
      const last = (event: StoredEvent) => event.kind === 'MessageEvent' && textOf(event) === 'SECOND';
      await eventsUntil(agent, conversationId, last);
      const texts: string[] = [];
      for await (const event of agent.iterateEvents(conversationId)) {
        if (event.kind === 'MessageEvent' && event.source === 'user') texts.push(textOf(event));
      }
      expect(texts).toEqual(['FIRST', 'SECOND']);
    } finally {
      await b.tasks.close();
    }
  }, 90_000);

  it('a task created but not run yet when its replica closes, or created after, is handed over and finished', async () => {
    const a = await replicaTasks(api(), { takeOver: false, graceMs: 100 });
    const starter = { userId: owner.id, orgId: null };
    const request = (text: string): AppConversationStartRequest => ({
      initial_message: { role: 'user', content: [{ type: 'text', text, cache_prompt: false }], run: true },
    });
    // Answered WORKING, then A stops before anyone runs it (a stream-start whose caller had not listened yet).
    const unrun = await a.tasks.create(starter, request('UNRUN'));
    await a.tasks.close();
    // A start admitted while A closes (a request already in flight), and run: handed over, never run by A.
    const late = await a.tasks.create(starter, request('LATE'));
    a.tasks.run(late, starter, request('LATE'));
    for (const task of [unrun, late]) {
      expect(await api().repositories.startTasks.getOfAnyUser(task.id)).toMatchObject({
        status: 'WORKING',
        runner: null,
        takeovers: 0,
      });
    }

    // Within B's lease of a minute: only tasks handed over are claimed by the sweep B makes as it opens.
    const b = await replicaTasks(api());
    try {
      for (const [task, text] of [
        [unrun, 'UNRUN'],
        [late, 'LATE'],
      ] as const) {
        const done = await untilSettled(
          () => api().repositories.startTasks.getOfAnyUser(task.id),
          'replica B to finish the start',
        );
        expect(done, done?.detail ?? '').toMatchObject({ status: 'READY', takeovers: 0, sealed: null });
        const conversationId = done?.app_conversation_id as string;
        const agent = await agentOfConversation(api(), owner, conversationId);
        await eventsUntil(agent, conversationId, (event) => event.kind === 'MessageEvent' && textOf(event) === text);
      }
    } finally {
      await b.tasks.close();
    }
  }, 90_000);
});
