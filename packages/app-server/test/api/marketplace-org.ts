import type { Api, TestUser } from './harness.ts';

/** A marketplace with one plugin bringing a skill, a command and a hook. */
export const MARKET = {
  '.plugin/marketplace.json': JSON.stringify({
    name: 'acme-tools',
    owner: { name: 'Acme' },
    plugins: [{ name: 'formatter', source: './plugins/formatter', description: 'Formats code' }],
  }),
  'plugins/formatter/.plugin/plugin.json': JSON.stringify({ name: 'formatter', description: 'Formats code' }),
  'plugins/formatter/skills/tidy/SKILL.md': '---\nname: tidy\ndescription: Tidies code.\n---\nTidy it.\n',
  'plugins/formatter/commands/format.md': '---\ndescription: Format the code\n---\nFormat everything.\n',
  'plugins/formatter/hooks/hooks.json': JSON.stringify({
    hooks: { PreToolUse: [{ matcher: 'terminal', hooks: [{ type: 'command', command: 'true' }] }] },
  }),
};

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
