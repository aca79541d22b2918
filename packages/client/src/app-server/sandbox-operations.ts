import type { Operation } from '../agent-server/operations.ts';

const PAGE = ['page_id', 'limit'] as const;
const SANDBOX = '/api/v1/sandboxes/{sandbox_id}';

/** The routes of the caller's sandboxes and of sandbox specs. */
export const SANDBOX_OPERATIONS = {
  searchSandboxes: { method: 'GET', path: '/api/v1/sandboxes/search', query: PAGE },
  getSandboxes: { method: 'GET', path: '/api/v1/sandboxes', query: ['id'] },
  startSandbox: { method: 'POST', path: '/api/v1/sandboxes', query: ['sandbox_spec_id'], body: true },
  pauseSandbox: { method: 'POST', path: `${SANDBOX}/pause` },
  resumeSandbox: { method: 'POST', path: `${SANDBOX}/resume` },
  deleteSandbox: { method: 'DELETE', path: SANDBOX },
  searchSandboxSpecs: { method: 'GET', path: '/api/v1/sandbox-specs/search', query: PAGE },
  getSandboxSpecs: { method: 'GET', path: '/api/v1/sandbox-specs', query: ['id'] },
} as const satisfies Record<string, Operation>;
