import { beforeAll, expect, it } from 'vitest';
import { type Api, type TestUser, describeApi } from './harness.ts';
import { CATALOG_CASES } from './ownership-catalog-cases.ts';
import { CONVERSATION_CASES } from './ownership-conversation-cases.ts';
import { EVENT_CASES } from './ownership-event-cases.ts';
import { GIT_CASES } from './ownership-git-cases.ts';
import { LAUNCH_CASES } from './ownership-launch-cases.ts';
import { LLM_PROFILE_CASES } from './ownership-llm-profile-cases.ts';
import { MARKETPLACE_CASES } from './ownership-marketplace-cases.ts';
import { ORGANIZATION_CASES } from './ownership-organization-cases.ts';
import { PENDING_CASES } from './ownership-pending-cases.ts';
import { PLUGIN_CASES } from './ownership-plugin-cases.ts';
import { SANDBOX_SECRET_CASES } from './ownership-sandbox-secret-cases.ts';
import {
  type Owned,
  type WrongUserCase,
  as,
  sandboxUnchanged,
  strangerCalls,
  strangerFinds,
} from './ownership-support.ts';

/**
 * Every `/api/v1` route, run as another user than the one whose resources it names. The routes come from the
 * OpenAPI document: a route without an entry here fails the test.
 */
const CASES: Record<string, WrongUserCase> = {
  'GET /api/v1/auth/sign-in': { expected: 'public' },
  // Sign-in through an issuer (a user it signs in sees only their own data: test/identity/oidc-server.test.ts).
  'GET /api/v1/auth/providers': { expected: 'public' },
  'GET /api/v1/auth/login': { expected: 'public' },
  'GET /api/v1/auth/callback': { expected: 'public' },
  // Ends only the session of the browser's own cookie (test/identity/oidc-login.test.ts).
  'GET /api/v1/auth/logout': { expected: 'public' },
  'POST /api/v1/auth/sign-out': {
    expected: 'own',
    attempt: strangerCalls(),
    unchanged: async (api, { owner }) => expect((await api.call('/api/v1/users/me', as(owner))).status).toBe(200),
  },
  'GET /api/v1/users/me': {
    expected: 'own',
    attempt: strangerCalls(),
  },
  'GET /api/v1/keys': { expected: 'own', attempt: strangerCalls() },
  'POST /api/v1/keys': {
    expected: 403,
    attempt: (api, { stranger, orgId }) =>
      api.call('/api/v1/keys', { method: 'POST', ...as(stranger), body: { org_id: orgId } }),
  },
  'DELETE /api/v1/keys/{key_id}': {
    expected: 404,
    attempt: strangerCalls(),
    unchanged: async (api, { owner }) => expect((await api.call('/api/v1/users/me', as(owner))).status).toBe(200),
  },
  'GET /api/v1/settings': {
    expected: 'own',
    attempt: strangerCalls(),
  },
  'POST /api/v1/settings': {
    expected: 'own',
    attempt: strangerCalls({ llm_model: 'stranger/model' }),
    unchanged: async (api, { owner, model }) =>
      expect((await api.call('/api/v1/settings', as(owner))).body.llm_model).toBe(model),
  },
  // The stranger's check is of their own LLM (they set none: no model), never the owner's (llm-check.test.ts).
  'POST /api/v1/settings/llm/check': { expected: 'own', attempt: strangerCalls() },
  'POST /api/v1/secrets': {
    expected: 'own',
    echoes: ['secretName'],
    // Another user's secret of the same name is no conflict (a 409 would tell that the name exists).
    attempt: async (api, { secretName }) =>
      api.call('/api/v1/secrets', {
        method: 'POST',
        ...as(await api.user()),
        body: { name: secretName, value: 'theirs' },
      }),
    unchanged: async (api, { owner, secretName }) =>
      expect(await api.repositories.secrets.value(owner.id, secretName)).toBe('owner-value'),
  },
  'GET /api/v1/secrets/search': {
    expected: 'own',
    attempt: strangerCalls(),
  },
  'PUT /api/v1/secrets/{secret_id}': {
    expected: 404,
    attempt: (api, { owner, secretName }) => strangerSecretCall(api, owner, secretName, 'PUT'),
    unchanged: async (api, { owner, secretName }) =>
      expect(await api.repositories.secrets.value(owner.id, secretName)).toBe('owner-value'),
  },
  'DELETE /api/v1/secrets/{secret_id}': {
    expected: 404,
    // By id (the PUT case names it): another user's id is as unknown as their name.
    attempt: (api, { owner, secretId }) => strangerSecretCall(api, owner, secretId, 'DELETE'),
    unchanged: async (api, { owner, secretName }) =>
      expect(await api.repositories.secrets.value(owner.id, secretName)).toBe('owner-value'),
  },
  'POST /api/v1/secrets/git-providers': {
    expected: 'own',
    attempt: strangerCalls({ provider_tokens: { github: { token: 'stranger-token' } } }),
    unchanged: async (api, { owner }) =>
      expect((await api.repositories.providerTokens.token(owner.id, 'github'))?.token).toBe('owner-token'),
  },
  'DELETE /api/v1/secrets/git-providers': {
    expected: 'own',
    attempt: strangerCalls(),
    unchanged: async (api, { owner }) =>
      expect((await api.repositories.providerTokens.token(owner.id, 'github'))?.token).toBe('owner-token'),
  },
  ...ORGANIZATION_CASES,
  'GET /api/v1/sandboxes/search': {
    expected: 'own',
    attempt: strangerCalls(),
  },
  'GET /api/v1/sandboxes': {
    expected: 'own',
    attempt: strangerFinds([null], ({ sandboxId }) => `?id=${sandboxId}`),
  },
  'POST /api/v1/sandboxes': {
    expected: 'own',
    attempt: strangerCalls(),
    unchanged: sandboxUnchanged,
  },
  'POST /api/v1/sandboxes/{sandbox_id}/pause': {
    expected: 404,
    attempt: strangerCalls(),
    unchanged: sandboxUnchanged,
  },
  'POST /api/v1/sandboxes/{sandbox_id}/resume': {
    expected: 404,
    attempt: strangerCalls(),
    unchanged: sandboxUnchanged,
  },
  'DELETE /api/v1/sandboxes/{sandbox_id}': {
    expected: 404,
    attempt: strangerCalls(),
    unchanged: sandboxUnchanged,
  },
  'GET /api/v1/sandbox-specs/search': {
    expected: 'own',
    attempt: strangerCalls(),
  },
  ...CONVERSATION_CASES,
  ...EVENT_CASES,
  ...SANDBOX_SECRET_CASES,
  ...PENDING_CASES,
  ...LAUNCH_CASES,
  ...PLUGIN_CASES,
  ...MARKETPLACE_CASES,
  ...CATALOG_CASES,
  ...LLM_PROFILE_CASES,
  ...GIT_CASES,
  'GET /api/v1/sandbox-specs': {
    expected: 'own',
    attempt: (api, { stranger }) => api.call('/api/v1/sandbox-specs?id=bosun-local', as(stranger)),
  },
};

async function strangerSecretCall(api: Api, owner: TestUser, name: string, method: 'PUT' | 'DELETE') {
  const stranger = await api.user();
  expect(stranger.id).not.toBe(owner.id);
  return api.call(`/api/v1/secrets/${name}`, {
    method,
    ...as(stranger),
    ...(method === 'PUT' ? { body: { value: 'overwritten' } } : {}),
  });
}

describeApi('every route, as the wrong user', (api) => {
  let owned: Owned;
  let routes: string[];
  beforeAll(async () => {
    const [owner, stranger] = await api().users(2);
    const suffix = owner.id.slice(-12);
    const model = `owner/model-${suffix}`;
    await api().call('/api/v1/settings', { method: 'POST', ...as(owner), body: { llm_model: model } });
    const secretName = `OWNER_SECRET_${suffix.replace(/-/g, '_')}`;
    const secret = await api().call('/api/v1/secrets', {
      method: 'POST',
      ...as(owner),
      body: { name: secretName, value: 'owner-value' },
    });
    await api().call('/api/v1/secrets/git-providers', {
      method: 'POST',
      ...as(owner),
      body: { provider_tokens: { github: { token: 'owner-token' } } },
    });
    const orgName = `Owner Org ${suffix}`;
    const org = await api().call('/api/v1/organizations', { method: 'POST', ...as(owner), body: { name: orgName } });
    const keys = await api().call('/api/v1/keys', as(owner));
    const sandboxId = `owner${suffix.replace(/-/g, '')}`;
    await api().repositories.sandboxes.create({
      id: sandboxId,
      userId: owner.id,
      specId: 'bosun-local',
      status: 'RUNNING',
    });
    const conversationId = crypto.randomUUID();
    const now = new Date().toISOString();
    await api().repositories.conversations.create({
      id: conversationId,
      user_id: owner.id,
      sandbox_id: sandboxId,
      title: 'Owner conversation',
      execution_status: 'idle',
      created_at: now,
      updated_at: now,
    });
    const task = await api().repositories.startTasks.create({
      id: crypto.randomUUID(),
      userId: owner.id,
      status: 'READY',
      request: JSON.stringify({ sandbox_id: sandboxId }),
    });
    await api().repositories.startTasks.update(task.id, { app_conversation_id: conversationId });
    const eventId = crypto.randomUUID();
    await api().repositories.events.append(conversationId, owner.id, [
      {
        id: eventId,
        kind: 'PauseEvent',
        timestamp: now,
        source: 'user',
        json: JSON.stringify({ kind: 'PauseEvent', id: eventId }),
      },
    ]);
    owned = {
      conversationId,
      eventId,
      taskId: task.id,
      owner,
      stranger,
      keyId: keys.body[0].id,
      orgId: org.body.id,
      orgName,
      secretName,
      secretId: secret.body.id,
      model,
      sandboxId,
    };
    const document = await api().call('/openapi.json');
    routes = Object.entries(document.body.paths as Record<string, object>)
      .filter(([path]) => path.startsWith('/api/v1/'))
      .flatMap(([path, operations]) => Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`));
  });

  it('has a case for every route of the API, and no case for a route that is gone', () => {
    expect(routes.length).toBeGreaterThan(15);
    expect(routes.filter((route) => !(route in CASES))).toEqual([]);
    expect(Object.keys(CASES).filter((route) => !routes.includes(route))).toEqual([]);
  });

  it.each(Object.entries(CASES).filter(([, c]) => c.attempt))(
    '%s',
    async (route, { expected, attempt, unchanged, echoes = [] }) => {
      const answer = await (attempt as NonNullable<WrongUserCase['attempt']>)(api(), owned, route);
      if (expected === 'own') expect(answer.status).toBeLessThan(300);
      else expect(answer.status).toBe(expected);
      const theirs = (['keyId', 'orgName', 'secretName', 'model', 'sandboxId'] as const).filter(
        (name) => !echoes.includes(name),
      );
      for (const value of [owned.owner.key, owned.owner.email, ...theirs.map((name) => owned[name])]) {
        expect(answer.text).not.toContain(value);
      }
      expect(answer.text).not.toContain('owner-value');
      expect(answer.text).not.toContain('owner-token');
      await unchanged?.(api(), owned);
    },
  );
});
