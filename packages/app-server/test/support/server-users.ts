import { randomUUID } from 'node:crypto';
import { AppServerClient } from '@bosun/client';
import type { RunningAppServer } from '../../src/index.ts';

export type Repositories = NonNullable<RunningAppServer['server']['context']['services']>['repositories'];

/** The repositories of a whole server (`startAppServer`'s; a server without services fails the test). */
export function repositoriesOf(running: RunningAppServer): Repositories {
  const repositories = running.server.context.services?.repositories;
  if (!repositories) throw new Error('the server has no services');
  return repositories;
}

/** A new user of the server: their id, an API key of theirs, and a client acting as them. */
export async function newUser(running: RunningAppServer): Promise<{ id: string; key: string; app: AppServerClient }> {
  const repositories = repositoriesOf(running);
  const { id } = await repositories.users.create({ email: `${randomUUID()}@example.test` });
  const { key } = await repositories.apiKeys.create({ userId: id, name: 'test' });
  return { id, key, app: new AppServerClient({ baseUrl: running.url, apiKey: key }) };
}

/**
 * A row of the user's conversation `id`, in a sandbox or none (as a conversation started on the agent server gets
 * one), so that the app knows it.
 */
export async function conversationRow(
  repositories: Repositories,
  row: { id: string; userId: string; sandboxId: string | null; title?: string | null },
): Promise<void> {
  const now = new Date().toISOString();
  await repositories.conversations.insert([
    {
      id: row.id,
      user_id: row.userId,
      org_id: null,
      sandbox_id: row.sandboxId,
      title: row.title ?? null,
      created_at: now,
      updated_at: now,
    },
  ]);
}
