import { randomUUID } from 'node:crypto';
import type { Operation } from '../../../../test/e2e/fuzz-requests.ts';
import type { Api, TestUser } from './harness.ts';
import { acmeWithRoles, post } from './marketplace-org.ts';

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => !!value && typeof value === 'object' && !Array.isArray(value);

/**
 * Makes a generated body safe to act on. The server fetches Git only from its configured providers (all three the
 * test's `git http-backend` server) through its host guard; beyond that, a source or repository that names a URL
 * elsewhere, and a Git token's host, is pinned here to the test's Git server or a closed loopback port, so that no
 * request leaves the machine even if a guard failed. Wrong types and other strings are kept (they are the 422s).
 */
export function sanitizer(gitUrl: string, closedUrl: string) {
  const pin = (value: string, n: number) =>
    /:\/\/|^git@|^ext::|^file:|^\//i.test(value) && !value.startsWith(gitUrl)
      ? n % 2 === 0
        ? `${gitUrl}/acme/market.git`
        : `${closedUrl}/acme/market.git`
      : value;
  const walk = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(walk);
    if (!isObject(value)) return value;
    const copy: Json = {};
    for (const [key, child] of Object.entries(value)) {
      if (typeof child === 'string' && /^(source|selected_repository)$/.test(key)) copy[key] = pin(child, key.length);
      // A Git token's host is where the server asks the provider's API: the test's Git server or a closed port.
      else if (key === 'host' && typeof child === 'string') copy[key] = child.length % 2 === 0 ? gitUrl : closedUrl;
      else if (key === 'confirmed_plugin_sources' && Array.isArray(child)) {
        copy[key] = child.map((item, i) => (typeof item === 'string' ? pin(item, i) : walk(item)));
      } else copy[key] = walk(child);
    }
    return copy;
  };
  return (_operation: Operation, body: unknown): unknown => walk(body);
}

/** What the user's requests may name: their own resources (and another user's, which must be a 404). */
export interface World {
  user: TestUser;
  /** A member of the user's organization (other users' ids are path values too). */
  member: TestUser;
  /** More ways the user signs requests: an API key bound to their organization, a browser session's cookie. */
  signed: Record<string, string>[];
  /** Values of `X-Org-Id`: the user's organizations, one they are not in, malformed ones. */
  orgHeaders: string[];
  pathValues: Record<string, string[]>;
  queryValues: Record<string, string[]>;
  /** After a request that deleted what a path value names: a new one in its place. */
  replace(name: string, value: string): Promise<void>;
  /** After a sign-out: a new session for the cookie. */
  signIn(): Promise<void>;
}

/**
 * The user's world: keys, secrets, an organization with members, personal and organization marketplaces, a
 * plugin trust, sandboxes (one RUNNING with no process behind it, one PAUSED) and a conversation with an event and
 * a start task.
 */
export async function worldOf(api: Api): Promise<World> {
  const { owner: user, admin, member, orgId } = await acmeWithRoles(api);
  const made = {
    key: async () => (await api.repositories.apiKeys.create({ userId: user.id, name: 'fuzz' })).record.id,
    secret: async () => {
      const name = `FUZZ_${randomUUID().slice(0, 8).toUpperCase()}`;
      await post(api, user, '/api/v1/secrets', { name, value: 'fuzz-value' });
      return name;
    },
    org: async () => (await post(api, user, '/api/v1/organizations', { name: `Fuzz ${randomUUID()}` })).body.id,
    sandbox: async (status: 'RUNNING' | 'PAUSED') => {
      const id = `fuzz${randomUUID().replace(/-/g, '').slice(0, 20)}`;
      await api.repositories.sandboxes.create({ id, userId: user.id, specId: 'bosun-local', status });
      return id;
    },
    conversation: async (sandboxId: string) => {
      const id = randomUUID();
      const now = new Date().toISOString();
      await api.repositories.conversations.create({
        id,
        user_id: user.id,
        sandbox_id: sandboxId,
        title: 'Fuzz conversation',
        execution_status: 'idle',
        created_at: now,
        updated_at: now,
      });
      const task = await api.repositories.startTasks.create({
        id: randomUUID(),
        userId: user.id,
        status: 'READY',
        request: JSON.stringify({ sandbox_id: sandboxId }),
      });
      await api.repositories.startTasks.update(task.id, { app_conversation_id: id });
      await api.repositories.events.append(id, user.id, [
        { id: randomUUID(), kind: 'PauseEvent', timestamp: now, source: 'user', json: '{"kind":"PauseEvent"}' },
      ]);
      return id;
    },
  };
  const personal = await post(api, user, '/api/v1/marketplaces', { source: 'github:acme/market', name: 'mine' });
  const listed = await api.call(`/api/v1/marketplaces?org_id=${orgId}`, { as: user });
  const shared = await post(api, user, '/api/v1/marketplaces', {
    source: 'github:acme/market',
    scope: 'organization',
    org_id: orgId,
    expected_version: listed.body.org_version,
  });
  if (personal.status !== 201 || shared.status !== 201 || shared.body.scope !== 'organization') {
    throw new Error(`${personal.text} ${shared.text}`);
  }
  const trust = await post(api, user, '/api/v1/plugin-trust', { source: 'github:acme/market' });
  // Git tokens (the configured providers are the test's Git server): the Git browsing routes ask it.
  const tokens = { github: { token: 'fuzz-git-token' }, gitlab: { token: 'fuzz-git-token' } };
  await post(api, user, '/api/v1/secrets/git-providers', { provider_tokens: tokens });
  // LLM profiles by names the path values hold ('mine' is also a marketplace's), one with a key.
  for (const name of ['mine', 'fuzz-profile']) {
    await post(api, user, `/api/v1/settings/profiles/${name}`, { llm: { model: 'fuzz/model', api_key: 'fuzz-key' } });
  }
  const running = await made.sandbox('RUNNING');
  const paused = await made.sandbox('PAUSED');
  const pathValues: Record<string, string[]> = {
    key_id: [await made.key()],
    secret_id: [await made.secret(), await made.secret()],
    org_id: [orgId, await made.org()],
    user_id: [user.id, admin.id, member.id],
    sandbox_id: [running, paused],
    conversation_id: [await made.conversation(running), await made.conversation(paused)],
    trust_id: trust.status < 300 ? [trust.body.id] : [],
    scope: ['personal', 'organization', 'instance'],
    plugin_id: ['formatter'],
    name: ['mine', personal.body.name, shared.body.name, 'company', 'fuzz-profile'].filter(
      (name) => typeof name === 'string',
    ),
  };
  await api.repositories.conversations.update(user.id, pathValues.conversation_id?.[0] as string, { is_public: 1 });
  const queryValues = {
    org_id: [orgId],
    sandbox_id: pathValues.sandbox_id as string[],
    conversation_id__eq: pathValues.conversation_id as string[],
    ids: pathValues.conversation_id as string[],
    // The shared reads' conversation (the first one is public).
    conversation_id: pathValues.conversation_id as string[],
    id: [...(pathValues.sandbox_id as string[]), 'bosun-local'],
    provider: ['github', 'gitlab', 'bitbucket'],
    repository: ['acme/market', 'acme/app'],
  };
  const again: Record<string, (old: string) => Promise<string>> = {
    key_id: made.key,
    secret_id: made.secret,
    org_id: made.org,
    sandbox_id: (old) => made.sandbox(old === running ? 'RUNNING' : 'PAUSED'),
    conversation_id: () => made.conversation(paused),
  };
  const orgKey = async (id: string) =>
    `Bearer ${(await api.repositories.apiKeys.create({ userId: user.id, name: 'fuzz-org', orgId: id })).key}`;
  const cookie = async () =>
    `bosun_session=${(await api.repositories.sessions.createSession(user.id, 3_600_000)).token}`;
  const strangers = await post(api, member, '/api/v1/organizations', { name: 'Not the user’s' });
  const signed: Record<string, string>[] = [{ authorization: await orgKey(orgId) }, { cookie: await cookie() }];
  const orgHeaders = [orgId, pathValues.org_id?.[1] as string, strangers.body.id, randomUUID(), 'acme', ' ', '-1'];
  return {
    user,
    member,
    signed,
    orgHeaders,
    pathValues,
    queryValues,
    signIn: async () => {
      signed[1] = { cookie: await cookie() };
    },
    replace: async (name, value) => {
      const values = pathValues[name];
      const make = again[name];
      if (!values || !make) return;
      const fresh = await make(value);
      values[values.indexOf(value)] = fresh;
      // The organization the user may have left: its key, header and query values name the new one.
      if (name === 'org_id' && queryValues.org_id[0] === value) {
        queryValues.org_id[0] = fresh;
        orgHeaders[0] = fresh;
        signed[0] = { authorization: await orgKey(fresh) };
      }
    },
  };
}
