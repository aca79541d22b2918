import { beforeAll, expect, it } from 'vitest';
import { type Answer, type Api, type TestUser, describeApi } from './harness.ts';
import { acmeWithRoles, post } from './marketplace-org.ts';

type Role = 'owner' | 'admin' | 'member' | 'outsider';

/** An organization with its sole owner, an admin, a member, another member (`target`) and a user outside it. */
interface Acme {
  orgId: string;
  users: Record<Role, TestUser>;
  target: TestUser;
}

interface RoleCase {
  call: (api: Api, acme: Acme, as: TestUser) => Promise<Answer>;
  expected: Record<Role, number>;
}

const path = (acme: Acme, rest = '') => `/api/v1/organizations/${acme.orgId}${rest}`;
const read =
  (rest = ''): RoleCase['call'] =>
  (api, acme, as) =>
    api.call(path(acme, rest), { as });
const reads = { owner: 200, admin: 200, member: 200, outsider: 404 };
const managerWrites = (ok: number) => ({ owner: ok, admin: ok, member: 403, outsider: 404 });

/**
 * Every route of an organization, called by each role in a new organization: what each answers. Outsiders get the
 * 404 of an organization that does not exist; members without the role a 403; the last owner cannot leave (409).
 */
const CASES: Record<string, RoleCase> = {
  'GET /api/v1/organizations/{org_id}': { call: read(), expected: reads },
  'PATCH /api/v1/organizations/{org_id}': {
    call: (api, acme, as) => api.call(path(acme), { method: 'PATCH', as, body: { name: 'Renamed' } }),
    expected: managerWrites(200),
  },
  'DELETE /api/v1/organizations/{org_id}': {
    call: (api, acme, as) => api.call(path(acme), { method: 'DELETE', as }),
    expected: { owner: 200, admin: 403, member: 403, outsider: 404 },
  },
  'GET /api/v1/organizations/{org_id}/me': { call: read('/me'), expected: reads },
  'GET /api/v1/organizations/{org_id}/members': { call: read('/members'), expected: reads },
  'GET /api/v1/organizations/{org_id}/members/count': { call: read('/members/count'), expected: reads },
  'POST /api/v1/organizations/{org_id}/members': {
    call: async (api, acme, as) => post(api, as, path(acme, '/members'), { user_id: (await api.user()).id }),
    expected: managerWrites(201),
  },
  'PATCH /api/v1/organizations/{org_id}/members/{user_id}': {
    call: (api, acme, as) =>
      api.call(path(acme, `/members/${acme.target.id}`), { method: 'PATCH', as, body: { role: 'admin' } }),
    expected: managerWrites(200),
  },
  'DELETE /api/v1/organizations/{org_id}/members/{user_id}': {
    call: (api, acme, as) => api.call(path(acme, `/members/${acme.target.id}`), { method: 'DELETE', as }),
    expected: managerWrites(200),
  },
  'POST /api/v1/organizations/{org_id}/leave': {
    call: (api, acme, as) => api.call(path(acme, '/leave'), { method: 'POST', as }),
    expected: { owner: 409, admin: 200, member: 200, outsider: 404 },
  },
};

const ROWS = Object.entries(CASES).flatMap(([route, { call, expected }]) =>
  (Object.keys(expected) as Role[]).map((role) => [route, role, expected[role], call] as const),
);

describeApi('every organization route, by role', (api) => {
  let routes: string[];
  beforeAll(async () => {
    const document = await api().call('/openapi.json');
    routes = Object.entries(document.body.paths as Record<string, object>)
      .filter(([route]) => route.startsWith('/api/v1/organizations/{org_id}'))
      .flatMap(([route, operations]) => Object.keys(operations).map((method) => `${method.toUpperCase()} ${route}`));
  });

  const acme = async (): Promise<Acme> => {
    const { owner, admin, member, orgId } = await acmeWithRoles(api());
    const [target, outsider] = await api().users(2);
    await post(api(), owner, `/api/v1/organizations/${orgId}/members`, { user_id: target.id });
    return { orgId, target, users: { owner, admin, member, outsider } };
  };

  it('has a row for every route of an organization', () => {
    expect(routes.filter((route) => !(route in CASES))).toEqual([]);
    expect(Object.keys(CASES).filter((route) => !routes.includes(route))).toEqual([]);
  });

  it.each(ROWS)('%s as %s: %i', async (_route, role, expected, call) => {
    const made = await acme();
    const answer = await call(api(), made, made.users[role]);
    expect(answer.status, answer.text).toBe(expected);
    if (expected >= 400) expect(answer.body).toEqual({ detail: expect.any(String) });
    if (role === 'outsider') {
      // No oracle: the same answer as for an organization that does not exist.
      const unknown = await call(api(), { ...made, orgId: crypto.randomUUID() }, made.users.outsider);
      expect({ status: answer.status, body: answer.body }).toEqual({ status: unknown.status, body: unknown.body });
      expect(answer.text).not.toContain('Acme');
    }
  });
});
