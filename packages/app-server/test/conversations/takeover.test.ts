import { type LlmReplay, startLlmReplay } from '@bosun/llm-replay';
import type { AppConversationStartRequest, StoredEvent } from '@bosun/protocol';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { ConversationDeps } from '../../src/conversations/deps.ts';
import { StartTasks } from '../../src/conversations/start-tasks.ts';
import { createRepositories, openDatabase } from '../../src/data/index.ts';
import type { StartTaskChange } from '../../src/data/repositories/start-tasks.ts';
import { gitUrlsOf } from '../../src/git/provider-urls.ts';
import { appServerConfig } from '../../src/index.ts';
import { RuntimeSandboxes, SANDBOX_SPECS } from '../../src/sandboxes/index.ts';
import { withGitProviders } from '../../src/sandboxes/launch.ts';
import { type Api, type TestUser, describeApi } from '../api/harness.ts';
import { until, untilSettled } from '../support/until.ts';
import { replica } from './replica.ts';
import { agentOfConversation, eventsUntil } from './support.ts';

let llm: LlmReplay;
beforeAll(async () => {
  llm = await startLlmReplay({ script: { turns: [{ content: 'Noted.', times: 100 }] } });
});
afterAll(async () => {
  await llm?.close();
});

const SECRET = 'takeover-secret-plaintext-marker';
/** The lease of the replicas here: a start untouched for half a second is one whose replica stopped. */
const LEASE = { heartbeatMs: 50, leaseMs: 500 };
const text = (words: string) => ({ content: [{ type: 'text' as const, text: words }] });

function textOf(event: StoredEvent): string {
  const { llm_message } = event as unknown as { llm_message: { content: { text?: string }[] } };
  return llm_message.content.map((item) => item.text ?? '').join('');
}

/**
 * Replica A starts `request` for `owner` through its own connection to the database, closed abruptly once `stopNow`
 * holds (asked each time A publishes a change, then every 50 ms): its heartbeats and every write of its run stop, as
 * a replica killed or cut off, leaving the task unsettled. With `ownSandboxes`, A starts sandboxes itself (its own
 * service over that connection, in the runtime `api`'s replica shares, as with a runtime service); with
 * `onlyTasks`, only A's writes to its task go through that connection (what it makes besides is made), and it is
 * closed right before the first write of a change that `onlyTasks` picks, however late the poll of `stopNow`.
 */
async function stoppedMidStart(
  api: Api,
  owner: TestUser,
  request: AppConversationStartRequest,
  {
    stopNow,
    ownSandboxes = false,
    onlyTasks,
  }: {
    stopNow: (published: string[], taskId: string) => Promise<boolean>;
    ownSandboxes?: boolean;
    onlyTasks?: (change: StartTaskChange) => boolean;
  },
) {
  const { target, keyRing } = api;
  const connection = await openDatabase({ dataDir: target.dataDir, url: target.url, keyRing });
  let closed: Promise<void> | undefined;
  const cut = () => {
    closed ??= connection.close();
    return closed;
  };
  const own = createRepositories(connection, keyRing);
  const repositories = onlyTasks
    ? {
        ...api.repositories,
        startTasks: Object.assign(Object.create(own.startTasks), {
          async updateAsRunner(id: string, runner: string, change: StartTaskChange) {
            if (onlyTasks(change)) await cut();
            return own.startTasks.updateAsRunner(id, runner, change);
          },
        }),
      }
    : own;
  const sandboxes = ownSandboxes
    ? await RuntimeSandboxes.open({
        repository: own.sandboxes,
        runtime: api.runtime.runtime,
        specs: withGitProviders(SANDBOX_SPECS, appServerConfig({})),
        maxRunningPerUser: 10,
        pauseOnClose: false,
      })
    : api.sandboxes;
  const a = await replica(api, { repositories, sandboxes });
  const replicaA = await StartTasks.open(a.deps, LEASE, { takeOver: false });
  const starter = { userId: owner.id, orgId: null };
  const task = await replicaA.create(starter, request);
  const published: string[] = [];
  const unfollow = await replicaA.follow(task.id, (change) => published.push(change.status));
  replicaA.run(task, starter, request);
  await until(
    async () => closed !== undefined || (await stopNow(published, task.id)),
    Boolean,
    'the moment to stop replica A',
  );
  await cut();
  await replicaA.close();
  await unfollow();
  if (ownSandboxes) await sandboxes.close();
  // A lost its database: neither the run's error nor the hand-over at its close could be written (which comes
  // first depends on when the run notices).
  expect(a.logs.join('\n')).toMatch(/start task: (could not record its error|not handed over, it waits for its lease)/);
  return { task, published };
}

/** Queues `words` for the task, each acknowledged (201) while nobody runs the start. */
async function queue(api: Api, owner: TestUser, taskId: string, ...words: string[]) {
  for (const word of words) {
    const queued = await api.call(`/api/v1/conversations/task-${taskId}/pending-messages`, {
      method: 'POST',
      as: owner,
      body: text(word),
    });
    expect(queued.status, queued.text).toBe(201);
    expect(queued.body).toMatchObject({ queued: true });
  }
}

/** Replica B takes the task over; answers it READY (or as it ended) with B's log, once its messages are delivered. */
async function takenOver(api: Api, taskId: string) {
  const b = await replica(api);
  const replicaB = await StartTasks.open(b.deps, LEASE);
  try {
    const done = await untilSettled(
      () => api.repositories.startTasks.getOfAnyUser(taskId),
      'replica B to finish the start',
    );
    expect(done, done?.detail ?? '').toMatchObject({ status: 'READY', takeovers: 1, sealed: null, key_id: null });
    expect(b.logs.join('\n')).toMatch(/start task taken over/);
    await until(
      () => api.repositories.pendingMessages.waiting({ taskId, conversationId: null }),
      (waiting) => waiting === 0,
      'the queue to empty',
    );
    return done as NonNullable<typeof done>;
  } finally {
    await replicaB.close();
  }
}

/** The texts of the user's messages in the conversation, in its agent server's order. */
async function userMessages(api: Api, owner: TestUser, conversationId: string, last: string) {
  const agent = await agentOfConversation(api, owner, conversationId);
  await eventsUntil(agent, conversationId, (event) => event.kind === 'MessageEvent' && textOf(event) === last);
  const texts: string[] = [];
  for await (const event of agent.iterateEvents(conversationId)) {
    if (event.kind === 'MessageEvent' && event.source === 'user') texts.push(textOf(event));
  }
  return { texts, agent };
}

const requestOf = (first: string): AppConversationStartRequest => ({
  initial_message: { role: 'user', content: [{ type: 'text', text: first, cache_prompt: false }], run: true },
  secrets: { DEPLOY_KEY: SECRET },
});

describeApi('start tasks taken over from a replica that stopped', (api) => {
  let owner: TestUser;
  beforeAll(async () => {
    owner = await api().user({ llm_model: 'test-model', llm_base_url: llm.baseUrl, llm_api_key: 'llm-key' });
  });

  it('another replica finishes the start (READY) and delivers what was queued meanwhile, in order, once', async () => {
    const { task, published } = await stoppedMidStart(api(), owner, requestOf('FIRST'), {
      stopNow: async (statuses) => statuses.includes('WAITING_FOR_SANDBOX'),
    });
    const left = await api().repositories.startTasks.getOfAnyUser(task.id);
    expect(left).toMatchObject({ status: 'WAITING_FOR_SANDBOX', takeovers: 0, app_conversation_id: null });
    // The full request is kept sealed, never in clear.
    expect(left?.sealed).toMatch(/^v1\./);
    expect(JSON.stringify(left)).not.toContain(SECRET);
    await queue(api(), owner, task.id, 'SECOND', 'THIRD');

    const done = await takenOver(api(), task.id);
    expect(done.app_conversation_id).toBe(left?.conversation_id);
    expect(published).not.toContain('ERROR');
    const conversationId = done.app_conversation_id as string;
    expect(done.sandbox_id).toBe(conversationId.replaceAll('-', ''));
    const { texts, agent } = await userMessages(api(), owner, conversationId, 'THIRD');
    expect(texts).toEqual(['FIRST', 'SECOND', 'THIRD']);
    // The request's secret reached the conversation through the sealed request.
    expect(
      JSON.stringify(
        (await agent.get('/api/conversations/{conversation_id}', { params: { conversation_id: conversationId } }))
          .secret_registry,
      ),
    ).toContain('DEPLOY_KEY');
  });

  it('a sandbox the stopped replica was starting, unrecorded, is paused and resumed: one sandbox, not two', async () => {
    const { runtime } = api().runtime;
    let sandboxId: string | null = null;
    const { task } = await stoppedMidStart(api(), owner, requestOf('ONE'), {
      ownSandboxes: true,
      // Stopped while the runtime starts the sandbox: A never learns its runtime id.
      stopNow: async (_, taskId) => {
        sandboxId ??= (await api().repositories.startTasks.getOfAnyUser(taskId))?.sandbox_id ?? null;
        return sandboxId !== null && (await runtime.getManyBySession([sandboxId]))[0] !== undefined;
      },
    });
    const id = sandboxId as unknown as string;
    const row = await api().repositories.sandboxes.get(owner.id, id);
    expect(row).toMatchObject({ status: 'STARTING', runtime_id: null });
    await queue(api(), owner, task.id, 'TWO');

    const done = await takenOver(api(), task.id);
    expect(done.sandbox_id).toBe(id);
    const { texts } = await userMessages(api(), owner, done.app_conversation_id as string, 'TWO');
    expect(texts).toEqual(['ONE', 'TWO']);
    const inRuntime = (await runtime.list()).filter((sandbox) => sandbox.sessionId === id);
    expect(inRuntime.map((sandbox) => sandbox.status)).toEqual(['RUNNING']);
  });

  it('a conversation the stopped replica started (row and agent) is reused: READY, its first message once', async () => {
    const { task } = await stoppedMidStart(api(), owner, requestOf('EIN'), {
      // A goes on making the conversation (its row, then on the agent server); only its READY is not written.
      onlyTasks: (change) => change.status === 'READY',
      stopNow: async () => false,
    });
    const left = await api().repositories.startTasks.getOfAnyUser(task.id);
    expect(left?.status).toBe('STARTING_CONVERSATION');
    const conversationId = left?.conversation_id as string;
    await until(
      () => api().repositories.conversations.getOfAnyUser(conversationId),
      (row) => row?.execution_status !== null && row?.execution_status !== undefined,
      'replica A to have started the conversation on the agent server',
    );
    await queue(api(), owner, task.id, 'ZWEI');

    const done = await takenOver(api(), task.id);
    expect(done.app_conversation_id).toBe(conversationId);
    const { texts } = await userMessages(api(), owner, conversationId, 'ZWEI');
    expect(texts).toEqual(['EIN', 'ZWEI']);
  });
});
