import { AppServerClient, BosunApiError } from '@bosun/client';
import { expect, it } from 'vitest';
import { describeApi } from './harness.ts';

describeApi('the typed client on the account routes', (api) => {
  // The typed paths are checked against the server's document by test/client/app-server-api.test.ts; the probes
  // are the client's only paths written by hand.
  it('reaches the probes without credentials', async () => {
    const client = new AppServerClient({ baseUrl: api().url });
    expect(await client.alive()).toEqual({ status: 'ok' });
    expect(await client.health()).toEqual({ status: 'ok' });
    expect((await client.ready()).status).toBe('ready');
  });

  it('drives the caller’s account: user, keys, settings, secrets, organizations', async () => {
    const user = await api().user();
    const client = new AppServerClient({ baseUrl: api().url, apiKey: user.key });
    expect((await client.get('/api/v1/users/me')).id).toBe(user.id);

    const key = await client.post('/api/v1/keys', { body: { name: 'from the client' } });
    expect(key.key).toMatch(/^sk-bosun-/);
    expect((await client.get('/api/v1/keys')).map((listed) => listed.name)).toContain('from the client');
    await client.delete('/api/v1/keys/{key_id}', { params: { key_id: key.id } });

    await client.post('/api/v1/settings', { body: { llm_model: 'client/model', llm_api_key: 'sk-client' } });
    expect(await client.get('/api/v1/settings')).toMatchObject({ llm_model: 'client/model', llm_api_key_set: true });

    await client.post('/api/v1/secrets', { body: { name: 'CLIENT_SECRET', value: 'v1' } });
    await client.put('/api/v1/secrets/{secret_id}', {
      params: { secret_id: 'CLIENT_SECRET' },
      body: { description: 'made by the client' },
    });
    expect((await client.get('/api/v1/secrets/search', { query: { name__contains: 'client' } })).items).toMatchObject([
      { name: 'CLIENT_SECRET', description: 'made by the client' },
    ]);
    await client.delete('/api/v1/secrets/{secret_id}', { params: { secret_id: 'CLIENT_SECRET' } });
    await client.post('/api/v1/secrets/git-providers', {
      body: { provider_tokens: { github: { token: 'ghp_client' } } },
    });
    await client.delete('/api/v1/secrets/git-providers');

    const org = await client.post('/api/v1/organizations', { body: { name: 'Client Org' } });
    expect((await client.get('/api/v1/organizations/{org_id}', { params: { org_id: org.id } })).role).toBe('owner');
    const other = await api().user();
    expect(
      (
        await client.post('/api/v1/organizations/{org_id}/members', {
          params: { org_id: org.id },
          body: { email: other.email, role: 'admin' },
        })
      ).role,
    ).toBe('admin');
    expect(
      (
        await client.patch('/api/v1/organizations/{org_id}/members/{user_id}', {
          params: { org_id: org.id, user_id: other.id },
          body: { role: 'member' },
        })
      ).role,
    ).toBe('member');
    expect(
      (await client.get('/api/v1/organizations/{org_id}/members', { params: { org_id: org.id } })).items,
    ).toHaveLength(2);
    const asOther = new AppServerClient({ baseUrl: api().url, apiKey: other.key, orgId: org.id });
    expect((await asOther.get('/api/v1/users/me')).org_id).toBe(org.id);
    await asOther.post('/api/v1/organizations/{org_id}/leave', { params: { org_id: org.id } });
    expect((await client.get('/api/v1/organizations')).items.map((listed) => listed.id)).toContain(org.id);
    expect(await client.get('/api/v1/organizations/{org_id}/me', { params: { org_id: org.id } })).toMatchObject({
      role: 'owner',
      can_delete: true,
      can_leave: false,
    });
    expect(
      await client.get('/api/v1/organizations/{org_id}/members/count', {
        params: { org_id: org.id },
        query: { email: other.email },
      }),
    ).toBe(0);
    expect(
      (await client.patch('/api/v1/organizations/{org_id}', { params: { org_id: org.id }, body: { name: 'Renamed' } }))
        .name,
    ).toBe('Renamed');
    expect((await client.delete('/api/v1/organizations/{org_id}', { params: { org_id: org.id } })).removed).toEqual({
      memberships: 1,
      api_keys: 0,
      marketplaces: 0,
    });

    const missing = await client
      .delete('/api/v1/secrets/{secret_id}', { params: { secret_id: 'NOPE' } })
      .catch((error: unknown) => error);
    expect(missing).toBeInstanceOf(BosunApiError);
    expect((missing as BosunApiError).status).toBe(404);
  });
});
