import type { Operation } from '../../agent-server/operations.ts';

const PAGE = ['page_id', 'limit'] as const;
const ORG = '/api/v1/organizations/{org_id}';

/** The routes of the caller's organizations, their members and their administration. */
export const ORGANIZATION_OPERATIONS = {
  listOrganizations: { method: 'GET', path: '/api/v1/organizations', query: PAGE },
  createOrganization: { method: 'POST', path: '/api/v1/organizations', body: true },
  getOrganization: { method: 'GET', path: ORG },
  listMembers: { method: 'GET', path: `${ORG}/members`, query: PAGE },
  addMember: { method: 'POST', path: `${ORG}/members`, body: true },
  setMemberRole: { method: 'PATCH', path: `${ORG}/members/{user_id}`, body: true },
  removeMember: { method: 'DELETE', path: `${ORG}/members/{user_id}` },
  leaveOrganization: { method: 'POST', path: `${ORG}/leave` },
  renameOrganization: { method: 'PATCH', path: ORG, body: true },
  deleteOrganization: { method: 'DELETE', path: ORG },
  myMembership: { method: 'GET', path: `${ORG}/me` },
  countMembers: { method: 'GET', path: `${ORG}/members/count`, query: ['email'] },
} as const satisfies Record<string, Operation>;
