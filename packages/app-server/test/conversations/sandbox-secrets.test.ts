import { type LlmReplay, startLlmReplay } from '@bosun/llm-replay';
import type { StoredEvent } from '@bosun/protocol';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { zipEntries } from '../../../../test/support/unzip.ts';
import { LOCAL_SPEC, type Sandbox } from '../../src/sandboxes/index.ts';
import { type Api, type TestUser, describeApi } from '../api/harness.ts';
import { agentOfConversation, eventsUntil, readyStart } from './support.ts';

/**
 * A sandbox reads its owner's secrets from the app with its own session key, each value as it is now: the start
 * gives provider tokens as LookupSecrets pointing there, so a token the user changes reaches the running terminal.
 */

const FIRST_TOKEN = 'ghp_first-token-never-shown-A';
const SECOND_TOKEN = 'ghp_second-token-never-shown-B';
const CUSTOM = 'custom-secret-never-shown';
/** The token's length and last letter: which token the shell has, without printing it (it would be masked). */
const show = (mark: string) => `echo "${mark} len:\${#GITHUB_TOKEN} last:\${GITHUB_TOKEN: -1}"`;
const finish = { tool_calls: [{ name: 'finish', arguments: { message: 'shown' } }], times: 20 };

let llm: LlmReplay;
beforeAll(async () => {
  // Each message runs its command once, then finishes (also when the command could not run).
  llm = await startLlmReplay({
    script: {
      turns: [
        { ...finish, when: { last_user_message_contains: 'SHOW-1', last_tool_result_contains: 'seen-1' } },
        { ...finish, when: { last_user_message_contains: 'SHOW-2', last_tool_result_contains: 'seen-2' } },
        { ...finish, when: { last_tool_result_contains: 'could not be looked up' } },
        {
          when: { last_user_message_contains: 'SHOW-1' },
          tool_calls: [{ name: 'terminal', arguments: { command: show('seen-1') } }],
          times: 20,
        },
        {
          when: { last_user_message_contains: 'SHOW-2' },
          tool_calls: [{ name: 'terminal', arguments: { command: show('seen-2') } }],
          times: 20,
        },
      ],
    },
  });
});
afterAll(() => llm?.close());

const secretsPath = (sandboxId: string, name?: string) =>
  `/api/v1/sandboxes/${sandboxId}/settings/secrets${name === undefined ? '' : `/${encodeURIComponent(name)}`}`;
const withKey = (key: string) => ({ headers: { 'X-Session-API-Key': key } });
const setToken = (api: Api, as: TestUser, token: string) =>
  api.call('/api/v1/secrets/git-providers', { method: 'POST', as, body: { provider_tokens: { github: { token } } } });

describeApi('sandbox secrets', (api) => {
  let owner: TestUser;
  let stranger: TestUser;
  let owners: Sandbox;
  let strangers: Sandbox;
  beforeAll(async () => {
    const settings = { llm_model: 'test-model', llm_base_url: llm.baseUrl, llm_api_key: 'llm-key-never-shown' };
    [owner, stranger] = await api().users(2, settings);
    expect((await setToken(api(), owner, FIRST_TOKEN)).status).toBe(200);
    const created = await api().call('/api/v1/secrets', {
      method: 'POST',
      as: owner,
      body: { name: 'DEPLOY_KEY', description: 'Deploys', value: CUSTOM },
    });
    expect(created.status, created.text).toBe(201);
    [owners, strangers] = await Promise.all([
      api().sandboxes.start(LOCAL_SPEC, owner.id),
      api().sandboxes.start(LOCAL_SPEC, stranger.id),
    ]);
    expect([owners.status, strangers.status]).toEqual(['RUNNING', 'RUNNING']);
  });
  const keyOf = (sandbox: Sandbox) => sandbox.sessionApiKey as string;

  it('lists the owner’s secrets and provider tokens by name to the sandbox’s own key, never cached', async () => {
    const listed = await api().call(secretsPath(owners.id), withKey(keyOf(owners)));
    expect(listed.status, listed.text).toBe(200);
    expect(listed.headers.get('cache-control')).toBe('no-store');
    expect(listed.body).toEqual({
      secrets: [
        { name: 'DEPLOY_KEY', description: 'Deploys' },
        { name: 'GITHUB_TOKEN', description: expect.any(String) },
      ],
    });
    expect(listed.text).not.toContain(FIRST_TOKEN);
    expect(listed.text).not.toContain(CUSTOM);
  });

  it('answers a value as text: the custom secret, the provider token, 404 for a name it does not have', async () => {
    const custom = await api().call(secretsPath(owners.id, 'DEPLOY_KEY'), withKey(keyOf(owners)));
    expect(custom.status).toBe(200);
    expect(custom.text).toBe(CUSTOM);
    expect(custom.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(custom.headers.get('cache-control')).toBe('no-store');
    const token = await api().call(secretsPath(owners.id, 'GITHUB_TOKEN'), withKey(keyOf(owners)));
    expect(token.text).toBe(FIRST_TOKEN);
    const missing = await api().call(secretsPath(owners.id, 'NOT_THERE'), withKey(keyOf(owners)));
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ detail: 'Secret not found' });
  });

  it('refuses any other caller: another sandbox’s key (403, the same for a sandbox that does not exist), a user', async () => {
    for (const path of [secretsPath(owners.id), secretsPath(owners.id, 'DEPLOY_KEY')]) {
      const other = await api().call(path, withKey(keyOf(strangers)));
      expect(other.status).toBe(403);
      const nowhere = await api().call(path.replace(owners.id, 'no-such-sandbox'), withKey(keyOf(strangers)));
      expect(nowhere.status).toBe(403);
      expect(nowhere.body).toEqual(other.body);
      // A user's API key as the session key, as a bearer key, a cookie-less call, a key that is no one's.
      for (const answer of [
        await api().call(path, withKey(owner.key)),
        await api().call(path, { as: owner }),
        await api().call(path),
        await api().call(path, withKey('not-a-key')),
      ]) {
        expect(answer.status).toBe(401);
        expect(answer.text).not.toContain(CUSTOM);
      }
    }
  });

  it('a token the user changes after the start (and a resume) is what the conversation’s terminal has next', async () => {
    const task = await readyStart(api(), owner, {
      initial_message: { content: [{ type: 'text', text: 'SHOW-1' }] },
    });
    const id = task.app_conversation_id as string;
    const agent = await agentOfConversation(api(), owner, id);
    const info = await agent.get('/api/conversations/{conversation_id}', { params: { conversation_id: id } });
    expect(info.secret_registry).toMatchObject({
      secret_sources: {
        GITHUB_TOKEN: {
          kind: 'LookupSecret',
          url: `${api().url}/api/v1/sandboxes/${task.sandbox_id}/settings/secrets/GITHUB_TOKEN`,
          headers: { 'X-Session-API-Key': '**********' },
        },
        DEPLOY_KEY: { kind: 'StaticSecret', value: '**********' },
      },
    });
    const observations = (events: { kind: string }[]) =>
      events.filter((event) => event.kind === 'ObservationEvent').map((event) => JSON.stringify(event));
    const finished = (event: StoredEvent) => event.kind === 'ObservationEvent' && event.tool_name === 'finish';
    const first = await eventsUntil(agent, id, finished);
    expect(observations(first)[0]).toContain(`seen-1 len:${FIRST_TOKEN.length} last:A`);

    // Paused and resumed: the sandbox has a new session key, which its conversation's lookups are given.
    for (const step of ['pause', 'resume']) {
      const answer = await api().call(`/api/v1/app-conversations/${id}/${step}`, { method: 'POST', as: owner });
      expect(answer.status, answer.text).toBe(200);
    }
    expect((await setToken(api(), owner, SECOND_TOKEN)).status).toBe(200);
    const sent = await api().call(`/api/v1/app-conversations/${id}/send-message`, {
      method: 'POST',
      as: owner,
      body: { content: [{ type: 'text', text: 'SHOW-2' }], run: true },
    });
    expect(sent.status, sent.text).toBe(200);
    const resumed = await agentOfConversation(api(), owner, id);
    let finishes = 0;
    const all = await eventsUntil(resumed, id, (event) => finished(event) && ++finishes === 2);
    expect(observations(all).at(-2)).toContain(`seen-2 len:${SECOND_TOKEN.length} last:B`);

    // Neither token, nor the sandbox's key, anywhere: the agent server's events, the app's log, its export.
    const sandbox = await api().sandboxes.get(owner.id, task.sandbox_id as string);
    const hidden = [FIRST_TOKEN, SECOND_TOKEN, CUSTOM, sandbox?.sessionApiKey as string];
    const exported = await fetch(`${api().url}/api/v1/app-conversations/${id}/download`, { headers: owner.headers });
    expect(exported.status).toBe(200);
    const entries = await zipEntries(new Uint8Array(await exported.arrayBuffer()));
    for (const text of [JSON.stringify(all), api().logs.join('\n'), JSON.stringify(entries)]) {
      for (const value of hidden) expect(text).not.toContain(value);
    }
  });
});
