import { execFile } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { AgentServerClient } from '@bosun/client';
import type { StoredEvent } from '@bosun/protocol';
import { expect } from 'vitest';
import type { Api, TestUser } from '../api/harness.ts';

const exec = promisify(execFile);
const GIT_ENV = {
  ...process.env,
  GIT_AUTHOR_NAME: 'Test',
  GIT_AUTHOR_EMAIL: 'test@example.invalid',
  GIT_COMMITTER_NAME: 'Test',
  GIT_COMMITTER_EMAIL: 'test@example.invalid',
  GIT_CONFIG_NOSYSTEM: '1',
};

async function git(cwd: string, ...args: string[]): Promise<string> {
  return (await exec('git', args, { cwd, env: GIT_ENV })).stdout.trim();
}

/** A bare repository `<root>/<name>.git` (default branch `main`) holding `files` on `main`, and more branches. */
export async function bareRepository(
  root: string,
  name: string,
  branches: Record<string, Record<string, string>>,
): Promise<string> {
  const bare = join(root, `${name}.git`);
  const work = join(root, '.work', name);
  await mkdir(bare, { recursive: true });
  await git(bare, 'init', '-q', '--bare', '-b', 'main');
  await mkdir(work, { recursive: true });
  await git(work, 'init', '-q', '-b', 'main');
  for (const [branch, files] of Object.entries(branches)) {
    if (branch !== 'main') await git(work, 'checkout', '-q', '-b', branch);
    for (const [path, content] of Object.entries(files)) {
      await mkdir(dirname(join(work, path)), { recursive: true });
      await writeFile(join(work, path), content);
    }
    await git(work, 'add', '-A');
    await git(work, 'commit', '-q', '-m', `on ${branch}`);
    await git(work, 'push', '-q', bare, `${branch}:${branch}`);
  }
  return bare;
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
