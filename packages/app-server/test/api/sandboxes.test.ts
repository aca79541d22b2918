import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { AppServerClient, inBatches } from '@bosun/client';
import { expect, it } from 'vitest';
import { sessionKeyHash } from '../../src/sandboxes/index.ts';
import { agentPid } from '../sandboxes/processes.ts';
import { until } from '../support/until.ts';
import { type Api, type TestUser, describeApi } from './harness.ts';

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Its agent server's answer to an authenticated API call with `key`. */
async function agentStatus(url: string, key: string): Promise<number> {
  const response = await fetch(`${url}/api/conversations/search`, { headers: { 'x-session-api-key': key } });
  await response.text();
  return response.status;
}

async function started(api: Api, owner: TestUser) {
  const answer = await api.call('/api/v1/sandboxes', { method: 'POST', as: owner, body: {} });
  expect(answer.status).toBe(200);
  return answer.body;
}

describeApi('sandboxes', (api) => {
  it('starts a sandbox, pauses it (workspace kept), resumes it with a new key and deletes it', async () => {
    const owner = await api().user();
    const sandbox = await started(api(), owner);
    expect(sandbox).toMatchObject({ status: 'RUNNING', sandbox_spec_id: 'bosun-local', created_by_user_id: owner.id });
    const [exposed] = sandbox.exposed_urls;
    expect(exposed).toMatchObject({ name: 'AGENT_SERVER', url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/) });
    const key: string = sandbox.session_api_key;
    expect(await agentStatus(exposed.url, key)).toBe(200);
    expect(await agentStatus(exposed.url, 'wrong')).toBe(401);
    const stored = await api().repositories.sandboxes.get(owner.id, sandbox.id);
    expect(stored?.session_api_key_hash).toBe(sessionKeyHash(key));
    expect(JSON.stringify(stored)).not.toContain(key);
    const pid = await agentPid(api().runtime.runtime, sandbox.id);
    expect(pid).toBeDefined();
    const workspace = await api().workspaceOf(sandbox.id);
    await writeFile(join(workspace, 'kept.txt'), 'still here');

    const paused = await api().call(`/api/v1/sandboxes/${sandbox.id}/pause`, { method: 'POST', as: owner });
    expect(paused).toMatchObject({ status: 200, body: { success: true } });
    expect(alive(pid as number)).toBe(false);
    const [afterPause] = (await api().call(`/api/v1/sandboxes?id=${sandbox.id}`, { as: owner })).body;
    expect(afterPause).toMatchObject({ status: 'PAUSED', session_api_key: null, exposed_urls: null });
    expect((await api().repositories.sandboxes.get(owner.id, sandbox.id))?.session_api_key_hash).toBeNull();
    expect(await readFile(join(workspace, 'kept.txt'), 'utf8')).toBe('still here');

    const resumed = await api().call(`/api/v1/sandboxes/${sandbox.id}/resume`, { method: 'POST', as: owner });
    expect(resumed).toMatchObject({ status: 200, body: { success: true } });
    const [afterResume] = (await api().call(`/api/v1/sandboxes?id=${sandbox.id}`, { as: owner })).body;
    expect(afterResume.status).toBe('RUNNING');
    expect(afterResume.session_api_key).not.toBe(key);
    const url = afterResume.exposed_urls[0].url;
    expect(await agentStatus(url, key)).toBe(401);
    expect(await agentStatus(url, afterResume.session_api_key)).toBe(200);
    expect(await readFile(join(workspace, 'kept.txt'), 'utf8')).toBe('still here');

    const again = await api().call(`/api/v1/sandboxes/${sandbox.id}/resume`, { method: 'POST', as: owner });
    expect(again.status).toBe(200);
    const [unchanged] = (await api().call(`/api/v1/sandboxes?id=${sandbox.id}`, { as: owner })).body;
    expect(unchanged.session_api_key).toBe(afterResume.session_api_key);

    const resumedPid = await agentPid(api().runtime.runtime, sandbox.id);
    const directory = dirname(workspace);
    const deleted = await api().call(`/api/v1/sandboxes/${sandbox.id}`, { method: 'DELETE', as: owner });
    expect(deleted).toMatchObject({ status: 200, body: { success: true } });
    expect(alive(resumedPid as number)).toBe(false);
    expect(existsSync(directory)).toBe(false);
    expect((await api().call(`/api/v1/sandboxes?id=${sandbox.id}`, { as: owner })).body).toEqual([null]);
    const twice = await api().call(`/api/v1/sandboxes/${sandbox.id}`, { method: 'DELETE', as: owner });
    expect(twice).toMatchObject({ status: 404, body: { detail: 'Sandbox not found' } });
    const logs = api().logs.join('');
    for (const secret of [key, afterResume.session_api_key]) expect(logs).not.toContain(secret);
  });

  it('shows a sandbox whose agent server was killed as ERROR with the reason', async () => {
    const owner = await api().user();
    const client = new AppServerClient({ baseUrl: api().url, apiKey: owner.key });
    const sandbox = await client.post('/api/v1/sandboxes', { body: { sandbox_spec_id: 'bosun-local' } });
    expect((await client.get('/api/v1/sandbox-specs/search')).items.map((spec) => spec.id)).toEqual(['bosun-local']);
    const pid = await agentPid(api().runtime.runtime, sandbox.id);
    process.kill(pid as number, 'SIGKILL');
    const [failed] = await until(
      async () => (await api().call(`/api/v1/sandboxes?id=${sandbox.id}`, { as: owner })).body,
      ([found]) => found.status === 'ERROR',
      'ERROR',
    );
    expect(failed).toMatchObject({ session_api_key: null, exposed_urls: null });
    expect(failed.status_detail).toContain('killed by SIGKILL');
    expect((await client.get('/api/v1/sandboxes/search')).items.map((item) => item.id)).toEqual([sandbox.id]);
    const ids = [...Array.from({ length: 150 }, (_, index) => `x${index}`), sandbox.id];
    const many = await inBatches(ids, (id) => client.get('/api/v1/sandboxes', { query: { id } }));
    expect(many).toHaveLength(151);
    expect(many.at(-1)).toMatchObject({ id: sandbox.id, status: 'ERROR' });
    expect(await client.delete('/api/v1/sandboxes/{sandbox_id}', { params: { sandbox_id: sandbox.id } })).toEqual({
      success: true,
    });
    await expect(
      client.post('/api/v1/sandboxes/{sandbox_id}/pause', { params: { sandbox_id: sandbox.id } }),
    ).rejects.toMatchObject({ status: 404 });
  });
});

describeApi(
  'sandboxes over the per-user cap',
  (api) => {
    it('pauses the user’s least recently started sandbox to make room, and only theirs', async () => {
      const [owner, other] = await api().users(2);
      const first = await started(api(), owner);
      const firstPid = await agentPid(api().runtime.runtime, first.id);
      const second = await started(api(), owner);
      expect(second.status).toBe('RUNNING');
      const [oldest, newest] = (await api().call(`/api/v1/sandboxes?id=${first.id}&id=${second.id}`, { as: owner }))
        .body;
      expect(oldest).toMatchObject({ status: 'PAUSED', status_detail: expect.stringContaining('at most 1 running') });
      expect(alive(firstPid as number)).toBe(false);
      expect(newest.status).toBe('RUNNING');
      const search = await api().call('/api/v1/sandboxes/search?limit=1', { as: owner });
      expect(search.body.items.map((item: { id: string }) => item.id)).toEqual([second.id]);
      const next = await api().call(`/api/v1/sandboxes/search?limit=1&page_id=${search.body.next_page_id}`, {
        as: owner,
      });
      expect(next.body).toEqual({ items: [expect.objectContaining({ id: first.id })], next_page_id: null });
      expect((await api().call('/api/v1/sandboxes/search', { as: other })).body.items).toEqual([]);
      for (const { id } of [first, second])
        await api().call(`/api/v1/sandboxes/${id}`, { method: 'DELETE', as: owner });
    });
  },
  { config: { max_running_sandboxes: 1 } },
);
