import type { Operation } from '../../agent-server/operations.ts';

const ENTRY = '/api/v1/marketplaces/{scope}/{name}';

/** The routes of registered marketplaces and their preview. */
export const MARKETPLACE_OPERATIONS = {
  listMarketplaces: { method: 'GET', path: '/api/v1/marketplaces', query: ['org_id'] },
  registerMarketplace: { method: 'POST', path: '/api/v1/marketplaces', body: true },
  updateMarketplace: { method: 'PATCH', path: ENTRY, query: ['org_id'], body: true },
  deleteMarketplace: { method: 'DELETE', path: ENTRY, query: ['org_id', 'expected_version'] },
  approveMarketplace: { method: 'POST', path: `${ENTRY}/approve`, query: ['org_id'], body: true },
  skillsAndPlugins: { method: 'GET', path: '/api/v1/skills-and-plugins', query: ['org_id'] },
  previewMarketplace: { method: 'POST', path: '/api/v1/skills/marketplace-skills', body: true },
} as const satisfies Record<string, Operation>;
