import { expect, it } from 'vitest';
import { describeApi } from './harness.ts';
import { acmeWithRoles } from './marketplace-org.ts';

describeApi('organization administration', (api) => {
  const org = (orgId: string, rest = '') => `/api/v1/organizations/${orgId}${rest}`;

  it('is renamed by owners and admins by the rules of a new name; members get 403, outsiders 404', async () => {
    const { owner, admin, member, orgId } = await acmeWithRoles(api());
    const renamed = await api().call(org(orgId), { method: 'PATCH', as: admin, body: { name: '  Acme Labs ' } });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ id: orgId, name: 'Acme Labs', role: 'admin' });
    expect((await api().call(org(orgId), { as: member })).body.name).toBe('Acme Labs');
    const byOwner = await api().call(org(orgId), { method: 'PATCH', as: owner, body: { name: 'Acme' } });
    expect(byOwner.body).toMatchObject({ name: 'Acme', role: 'owner' });
    const refused = await api().call(org(orgId), { method: 'PATCH', as: member, body: { name: 'Mine now' } });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ detail: expect.stringMatching(/owners and admins/) });
    for (const body of [{ name: '   ' }, { name: '' }, { name: 'x'.repeat(256) }, {}, { name: 'A', credits: 5 }]) {
      const bad = await api().call(org(orgId), { method: 'PATCH', as: owner, body });
      expect(bad.status, JSON.stringify(body)).toBe(422);
      expect(bad.body.detail[0]).toMatchObject({ loc: expect.any(Array), msg: expect.any(String) });
    }
    expect((await api().call(org(orgId), { as: owner })).body.name).toBe('Acme');
  });

  it('tells each member their role and what it lets them do; the last owner may not leave', async () => {
    const { owner, admin, member, orgId } = await acmeWithRoles(api());
    const me = async (user: typeof owner) => (await api().call(org(orgId, '/me'), { as: user })).body;
    expect(await me(owner)).toEqual({
      org_id: orgId,
      user_id: owner.id,
      email: owner.email,
      role: 'owner',
      status: 'active',
      permissions: ['manage_members', 'manage_owners', 'manage_marketplaces', 'rename', 'delete'],
      can_manage_members: true,
      can_manage_owners: true,
      can_manage_marketplaces: true,
      can_rename: true,
      can_delete: true,
      can_leave: false,
    });
    expect(await me(admin)).toMatchObject({
      role: 'admin',
      permissions: ['manage_members', 'manage_marketplaces', 'rename', 'leave'],
      can_manage_owners: false,
      can_delete: false,
      can_leave: true,
    });
    expect(await me(member)).toMatchObject({ role: 'member', permissions: ['leave'], can_manage_members: false });
    await api().call(org(orgId, `/members/${member.id}`), { method: 'PATCH', as: owner, body: { role: 'owner' } });
    expect(await me(owner)).toMatchObject({ can_leave: true });
  });

  it('counts members, by part of their email in any case', async () => {
    const { owner, member, orgId } = await acmeWithRoles(api());
    const count = (as: typeof owner, query = '') => api().call(org(orgId, `/members/count${query}`), { as });
    expect((await count(member)).body).toBe(3);
    expect((await count(owner, `?email=${encodeURIComponent(member.email.toUpperCase())}`)).body).toBe(1);
    expect((await count(owner, '?email=nobody-has-this')).body).toBe(0);
    expect((await count(owner, `?email=${'x'.repeat(256)}`)).status).toBe(422);
  });

  it('is deleted by an owner only, with its memberships, bound keys and marketplaces; conversations stay', async () => {
    const { owner, admin, member, orgId } = await acmeWithRoles(api());
    const bound = await api().repositories.apiKeys.create({ userId: member.id, name: 'bound', orgId });
    await api().repositories.marketplaces.create(
      { scope: 'organization', orgId },
      {
        name: 'shared',
        source: 'github:acme/market',
        ref: null,
        repo_path: null,
        auto_load: true,
        updates: 'follow',
        approved_ref: null,
        registeredBy: admin.id,
      },
    );
    const conversationId = crypto.randomUUID();
    const now = new Date().toISOString();
    await api().repositories.conversations.create({
      id: conversationId,
      user_id: member.id,
      org_id: orgId,
      title: 'Kept',
      created_at: now,
      updated_at: now,
    });
    for (const user of [admin, member]) {
      const refused = await api().call(org(orgId), { method: 'DELETE', as: user });
      expect(refused.status).toBe(403);
      expect(refused.body).toEqual({ detail: 'Only an owner deletes an organization' });
    }
    const deleted = await api().call(org(orgId), { method: 'DELETE', as: owner });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({
      message: expect.any(String),
      id: orgId,
      name: 'Acme',
      removed: { memberships: 3, api_keys: 1, marketplaces: 1 },
      kept: { conversations: 1 },
    });
    for (const user of [owner, member]) expect((await api().call(org(orgId), { as: user })).status).toBe(404);
    expect((await api().call(org(orgId), { method: 'DELETE', as: owner })).status).toBe(404);
    const withBoundKey = await api().call('/api/v1/users/me', { headers: { authorization: `Bearer ${bound.key}` } });
    expect(withBoundKey.status).toBe(401);
    expect((await api().call('/api/v1/users/me', { as: member })).status).toBe(200);
    const kept = await api().call(`/api/v1/app-conversations?ids=${conversationId}`, { as: member });
    expect(kept.body).toEqual([expect.objectContaining({ id: conversationId, title: 'Kept' })]);
  });
});
