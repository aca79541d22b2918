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
  attempt?: Attempt;
  /** What the answer may hold because the stranger sent it (their own secret of the same name). */
  echoes?: (keyof Owned)[];
  /** That the owner's resource is unchanged afterwards. */
  unchanged?: (api: Api, owned: Owned) => Promise<void>;
}

/** The stranger's request; `route` is the case's own (`strangerCalls` calls it). */
export type Attempt = (api: Api, owned: Owned, route: string) => Promise<Answer>;

export const as = (user: TestUser) => ({ as: user });

/** What stands for each `{place}` of a route: the owner's. */
const PLACES: Record<string, (owned: Owned) => string> = {
  key_id: (owned) => owned.keyId,
  org_id: (owned) => owned.orgId,
  user_id: (owned) => owned.owner.id,
  sandbox_id: (owned) => owned.sandboxId,
  conversation_id: (owned) => owned.conversationId,
};

/** The case's route (`METHOD /path`) as the stranger calls it: its method, its path with the owner's `{places}`. */
function routeOf(route: string, owned: Owned): { method: string; path: string } {
  const [method, template] = route.split(' ') as [string, string];
  const path = template.replace(/\{(\w+)\}/g, (_, place: string) => {
    const value = PLACES[place];
    if (!value) throw new Error(`${route}: no value for {${place}}`);
    return value(owned);
  });
  return { method, path };
}

/** The stranger calls the case's route itself, its `{places}` the owner's, with `body` (as JSON) when given. */
export const strangerCalls =
  (body?: unknown): Attempt =>
  (api, owned, route) => {
    const { method, path } = routeOf(route, owned);
    return api.call(path, { method, ...as(owned.stranger), body });
  };

/**
 * The stranger reads the case's route, with `query` (naming what the owner made), and finds `nothing`: the body, or
 * when `nothing` is an object (`{ items: [] }`), those fields of it.
 */
export const strangerFinds =
  (nothing: unknown, query: (owned: Owned) => string = () => ''): Attempt =>
  async (api, owned, route) => {
    const { path } = routeOf(route, owned);
    const answer = await api.call(`${path}${query(owned)}`, as(owned.stranger));
    const found = typeof nothing === 'object' && !Array.isArray(nothing) ? expect.objectContaining(nothing) : nothing;
    expect(answer.body).toEqual(found);
    return answer;
  };

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
