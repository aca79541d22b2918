import { expect, it } from 'vitest';
import { type TestUser, describeApi } from './harness.ts';

describeApi('organizations and roles', (api) => {
  const createOrg = async (owner: TestUser, name = 'Acme') => {
    const answer = await api().call('/api/v1/organizations', { method: 'POST', as: owner, body: { name } });
    expect(answer.status).toBe(201);
    return answer.body.id as string;
  };
  const add = (org: string, as: TestUser, who: TestUser, role?: string) =>
    api().call(`/api/v1/organizations/${org}/members`, {
      method: 'POST',
      as,
      body: { user_id: who.id, ...(role ? { role } : {}) },
    });
  const setRole = (org: string, as: TestUser, who: TestUser, role: string) =>
    api().call(`/api/v1/organizations/${org}/members/${who.id}`, { method: 'PATCH', as, body: { role } });
  const remove = (org: string, as: TestUser, who: TestUser) =>
    api().call(`/api/v1/organizations/${org}/members/${who.id}`, { method: 'DELETE', as });
  const roles = async (org: string, as: TestUser) => {
    const answer = await api().call(`/api/v1/organizations/${org}/members`, { as });
    expect(answer.status).toBe(200);
    return Object.fromEntries(answer.body.items.map((m: { user_id: string; role: string }) => [m.user_id, m.role]));
  };

  it('are created with their creator as owner, listed and read by members', async () => {
    const owner = await api().user();
    const org = await createOrg(owner, 'Acme Robotics');
    const mine = await api().call('/api/v1/organizations', { as: owner });
    expect(mine.status).toBe(200);
    expect(mine.body).toMatchObject({ items: [{ id: org, name: 'Acme Robotics', role: 'owner' }], next_page_id: null });
    const one = await api().call(`/api/v1/organizations/${org}`, { as: owner });
    expect(one.body).toMatchObject({ id: org, name: 'Acme Robotics', role: 'owner' });
    expect(await roles(org, owner)).toEqual({ [owner.id]: 'owner' });
  });

  it('page the caller’s organizations', async () => {
    const owner = await api().user();
    for (const name of ['One', 'Two', 'Three']) await createOrg(owner, name);
    const first = await api().call('/api/v1/organizations?limit=2', { as: owner });
    expect(first.body.items).toHaveLength(2);
    const second = await api().call(`/api/v1/organizations?limit=2&page_id=${first.body.next_page_id}`, { as: owner });
    expect(second.body.items.map((o: { name: string }) => o.name)).toEqual(['Three']);
    expect(second.body.next_page_id).toBeNull();
    const bad = await api().call('/api/v1/organizations?page_id=-4', { as: owner });
    expect(bad.status).toBe(422);
  });

  it('let owners and admins add members by id or email; members cannot', async () => {
    const [owner, admin, member, newcomer, other] = await api().users(5);
    const org = await createOrg(owner);
    expect((await add(org, owner, admin, 'admin')).status).toBe(201);
    const byEmail = await api().call(`/api/v1/organizations/${org}/members`, {
      method: 'POST',
      as: admin,
      body: { email: member.email.toUpperCase() },
    });
    expect(byEmail.status).toBe(201);
    expect(byEmail.body).toMatchObject({ user_id: member.id, role: 'member' });
    expect((await add(org, member, newcomer)).status).toBe(403);
    expect((await add(org, admin, newcomer, 'owner')).status).toBe(403);
    expect((await add(org, owner, member)).status).toBe(409);
    const unknown = await api().call(`/api/v1/organizations/${org}/members`, {
      method: 'POST',
      as: owner,
      body: { email: 'nobody@nowhere.test' },
    });
    expect(unknown.status).toBe(404);
    const both = await api().call(`/api/v1/organizations/${org}/members`, {
      method: 'POST',
      as: owner,
      body: { email: other.email, user_id: other.id },
    });
    expect(both.status).toBe(422);
    expect(await roles(org, member)).toEqual({ [owner.id]: 'owner', [admin.id]: 'admin', [member.id]: 'member' });
  });

  it('let only an owner make or unmake an owner, and admins change the others', async () => {
    const [owner, admin, member] = await api().users(3);
    const org = await createOrg(owner);
    await add(org, owner, admin, 'admin');
    await add(org, owner, member);
    expect((await setRole(org, member, admin, 'member')).status).toBe(403);
    expect((await setRole(org, admin, member, 'owner')).status).toBe(403);
    expect((await setRole(org, admin, owner, 'member')).status).toBe(403);
    const promoted = await setRole(org, admin, member, 'admin');
    expect(promoted.status).toBe(200);
    expect(promoted.body).toMatchObject({ user_id: member.id, role: 'admin' });
    expect((await setRole(org, owner, member, 'owner')).status).toBe(200);
    expect((await setRole(org, member, owner, 'member')).status).toBe(200);
    expect(await roles(org, admin)).toEqual({ [owner.id]: 'member', [admin.id]: 'admin', [member.id]: 'owner' });
    expect((await setRole(org, member, owner, 'king')).status).toBe(422);
  });

  it('keep their last owner: not demoted, not removed, cannot leave (409)', async () => {
    const [owner, member] = await api().users(2);
    const org = await createOrg(owner);
    await add(org, owner, member);
    expect((await setRole(org, owner, owner, 'admin')).status).toBe(409);
    expect((await remove(org, owner, owner)).status).toBe(409);
    const leave = await api().call(`/api/v1/organizations/${org}/leave`, { method: 'POST', as: owner });
    expect(leave.status).toBe(409);
    expect(leave.body.detail).toMatch(/last owner/);
    expect(await roles(org, owner)).toEqual({ [owner.id]: 'owner', [member.id]: 'member' });
  });

  it('let members leave, and owners and admins remove others (an owner only by an owner)', async () => {
    const [owner, admin, member, coOwner] = await api().users(4);
    const org = await createOrg(owner);
    await add(org, owner, admin, 'admin');
    await add(org, owner, member);
    await add(org, owner, coOwner, 'owner');
    expect((await remove(org, member, admin)).status).toBe(403);
    expect((await remove(org, admin, coOwner)).status).toBe(403);
    expect((await api().call(`/api/v1/organizations/${org}/leave`, { method: 'POST', as: member })).status).toBe(200);
    expect((await api().call(`/api/v1/organizations/${org}`, { as: member })).status).toBe(404);
    expect((await remove(org, owner, coOwner)).status).toBe(200);
    expect((await remove(org, owner, coOwner)).status).toBe(404);
    expect((await remove(org, admin, admin)).status).toBe(200);
    expect(await roles(org, owner)).toEqual({ [owner.id]: 'owner' });
  });
});
