import type { Api, TestUser } from './harness.ts';

/** `body` posted to `path` as `user`. */
export const post = (api: Api, user: TestUser, path: string, body: unknown) =>
  api.call(path, { method: 'POST', as: user, body });

/** An organization `Acme` made by an owner, with an admin and a member: who writes and who reads org marketplaces. */
export async function acmeWithRoles(
  api: Api,
): Promise<{ owner: TestUser; admin: TestUser; member: TestUser; orgId: string }> {
  const [owner, admin, member] = await api.users(3);
  const created = await post(api, owner, '/api/v1/organizations', { name: 'Acme' });
  const orgId: string = created.body.id;
  for (const [user, role] of [
    [admin, 'admin'],
    [member, 'member'],
  ] as const) {
    await post(api, owner, `/api/v1/organizations/${orgId}/members`, { user_id: user.id, role });
  }
  return { owner, admin, member, orgId };
}
