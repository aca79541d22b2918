import type { Api, TestUser } from './harness.ts';

/** An organization `Acme` made by an owner, with an admin and a member: who writes and who reads org marketplaces. */
export async function acmeWithRoles(
  api: Api,
): Promise<{ owner: TestUser; admin: TestUser; member: TestUser; orgId: string }> {
  const [owner, admin, member] = await api.users(3);
  const created = await api.call('/api/v1/organizations', { method: 'POST', as: owner, body: { name: 'Acme' } });
  const orgId: string = created.body.id;
  for (const [user, role] of [
    [admin, 'admin'],
    [member, 'member'],
  ] as const) {
    const path = `/api/v1/organizations/${orgId}/members`;
    await api.call(path, { method: 'POST', as: owner, body: { user_id: user.id, role } });
  }
  return { owner, admin, member, orgId };
}
