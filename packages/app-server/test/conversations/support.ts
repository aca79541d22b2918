import { AgentServerClient, AppServerClient, waitForStartTask } from '@bosun/client';
import type { StoredEvent } from '@bosun/protocol';
import { expect } from 'vitest';
import { TestRepository } from '../../../sources/test/git/support.ts';
import type { Api, TestUser } from '../api/harness.ts';

/** A bare repository `<root>/<name>.git` (default branch `main`) holding `files` on `main`, and more branches. */
export async function bareRepository(
  root: string,
  name: string,
  branches: Record<string, Record<string, string>>,
): Promise<string> {
  const repository = await TestRepository.create(root, name);
  for (const [branch, files] of Object.entries(branches)) await repository.commit(files, `on ${branch}`, branch);
  return repository.bare;
}

/** Starts a conversation through `stream-start` and answers every task the stream carried (the last: READY or ERROR). */
export async function streamStart(api: Api, user: TestUser, body: unknown) {
  const answer = await api.call('/api/v1/app-conversations/stream-start', { method: 'POST', as: user, body });
  expect(answer.status, answer.text).toBe(200);
  // biome-ignore lint/suspicious/noExplicitAny: wire JSON read loosely.
  const tasks = answer.body as any[];
  expect(tasks.length).toBeGreaterThan(1);
  return { tasks, last: tasks.at(-1), text: answer.text };
}

/** Starts a conversation through `POST /app-conversations` with `body`, and answers its start task once READY. */
export async function readyStart(api: Api, user: TestUser, body: object = {}) {
  const started = await api.call('/api/v1/app-conversations', { method: 'POST', as: user, body });
  expect(started.status, started.text).toBe(200);
  const client = new AppServerClient({ baseUrl: api.url, apiKey: user.key });
  const task = await waitForStartTask(client, started.body.id, { intervalMs: 20 });
  expect(task.status, task.detail ?? '').toBe('READY');
  return task;
}

/** A client of the conversation's agent server, from what the app answers about it. */
export async function agentOfConversation(api: Api, user: TestUser, id: string) {
  const [conversation] = (await api.call(`/api/v1/app-conversations?ids=${id}`, { as: user })).body;
  expect(conversation?.sandbox_status).toBe('RUNNING');
  const baseUrl = String(conversation.conversation_url).replace(/\/api\/conversations\/.*$/, '');
  return new AgentServerClient({ baseUrl, sessionApiKey: conversation.session_api_key });
}

/** The conversation's events until one passes `done` (followed live: no polling, no sleep). */
export async function eventsUntil(
  agent: AgentServerClient,
  id: string,
  done: (event: StoredEvent) => boolean,
): Promise<StoredEvent[]> {
  const events: StoredEvent[] = [];
  for await (const event of agent.followEvents(id, { fromStart: true })) {
    events.push(event);
    if (done(event)) break;
  }
  return events;
}
