import { APP_SERVER_OPERATIONS, AppServerClient, BosunApiError } from '@bosun/client';
import { expect, it } from 'vitest';
import { type OpenApiDocument, contractProblems } from '../../../../test/client/openapi-contract.ts';
import { describeApi } from './harness.ts';

describeApi('the typed client on the account routes', (api) => {
  it("agrees with the app server's OpenAPI document on every route it calls", async () => {
    const document = (await api().call('/openapi.json')).body as OpenApiDocument;
    expect(contractProblems(APP_SERVER_OPERATIONS, document)).toEqual([]);
  });

  it('drives the caller’s account: user, keys, settings, secrets, organizations', async () => {
    const user = await api().user();
    const client = new AppServerClient({ baseUrl: api().url, apiKey: user.key });
    expect((await client.me()).id).toBe(user.id);

    const key = await client.createApiKey({ name: 'from the client' });
    expect(key.key).toMatch(/^sk-bosun-/);
    expect((await client.listApiKeys()).map((listed) => listed.name)).toContain('from the client');
    await client.deleteApiKey(key.id);

    await client.updateSettings({ llm_model: 'client/model', llm_api_key: 'sk-client' });
    expect(await client.getSettings()).toMatchObject({ llm_model: 'client/model', llm_api_key_set: true });

    await client.createSecret({ name: 'CLIENT_SECRET', value: 'v1' });
    await client.updateSecret('CLIENT_SECRET', { description: 'made by the client' });
    expect((await client.searchSecrets({ name__contains: 'client' })).items).toMatchObject([
      { name: 'CLIENT_SECRET', description: 'made by the client' },
    ]);
    await client.deleteSecret('CLIENT_SECRET');
    await client.storeGitProviderTokens({ provider_tokens: { github: { token: 'ghp_client' } } });
    await client.deleteGitProviderTokens();

    const org = await client.createOrganization({ name: 'Client Org' });
    expect((await client.getOrganization(org.id)).role).toBe('owner');
    const other = await api().user();
    expect((await client.addMember(org.id, { email: other.email, role: 'admin' })).role).toBe('admin');
    expect((await client.setMemberRole(org.id, other.id, 'member')).role).toBe('member');
    expect((await client.listMembers(org.id)).items).toHaveLength(2);
    const asOther = new AppServerClient({ baseUrl: api().url, apiKey: other.key, orgId: org.id });
    expect((await asOther.me()).org_id).toBe(org.id);
    await asOther.leaveOrganization(org.id);
    expect((await client.listOrganizations()).items.map((listed) => listed.id)).toContain(org.id);
    expect(await client.myMembership(org.id)).toMatchObject({ role: 'owner', can_delete: true, can_leave: false });
    expect(await client.countMembers(org.id, { email: other.email })).toBe(0);
    expect((await client.renameOrganization(org.id, { name: 'Renamed' })).name).toBe('Renamed');
    expect((await client.deleteOrganization(org.id)).removed).toEqual({ memberships: 1, api_keys: 0, marketplaces: 0 });

    const missing = await client.deleteSecret('NOPE').catch((error: unknown) => error);
    expect(missing).toBeInstanceOf(BosunApiError);
    expect((missing as BosunApiError).status).toBe(404);
  });
});
