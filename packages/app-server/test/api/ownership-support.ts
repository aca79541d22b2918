import { expect } from 'vitest';
import type { Answer, Api, TestUser } from './harness.ts';

/** What the owner made, that the stranger must neither read nor change. */
export interface Owned {
  owner: TestUser;
  stranger: TestUser;
  keyId: string;
  orgId: string;
  orgName: string;
  secretName: string;
  secretId: string;
  model: string;
  sandboxId: string;
  conversationId: string;
  /** The one event of the owner's conversation. */
  eventId: string;
  taskId: string;
}

export interface WrongUserCase {
  /** What the stranger's request must answer: a status, or `own` for routes that act on the caller's own data. */
  expected: 404 | 403 | 401 | 422 | 'own' | 'public';
  attempt?: (api: Api, owned: Owned) => Promise<Answer>;
  /** What the answer may hold because the stranger sent it (their own secret of the same name). */
  echoes?: (keyof Owned)[];
  /** That the owner's resource is unchanged afterwards. */
  unchanged?: (api: Api, owned: Owned) => Promise<void>;
}

export const as = (user: TestUser) => ({ as: user });

/** The owner's sandbox (a record marked RUNNING, with no process: any change to it would show). */
export async function sandboxUnchanged(api: Api, { owner, sandboxId }: Owned) {
  const [sandbox] = (await api.call(`/api/v1/sandboxes?id=${sandboxId}`, as(owner))).body;
  expect(sandbox).toMatchObject({ id: sandboxId, status: 'RUNNING', created_by_user_id: owner.id });
}

/** The owner's conversation, as it was made. */
export async function conversationUnchanged(api: Api, { owner, conversationId, sandboxId }: Owned) {
  const [conversation] = (await api.call(`/api/v1/app-conversations?ids=${conversationId}`, as(owner))).body;
  expect(conversation).toMatchObject({ id: conversationId, title: 'Owner conversation', sandbox_id: sandboxId });
}
