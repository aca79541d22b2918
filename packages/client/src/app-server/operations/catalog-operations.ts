import type { Operation } from '../../agent-server/operations.ts';

const PAGE = ['page_id', 'limit'] as const;

/** The routes a web client reads on its settings and home pages (settings schemas, models, skills, Git account). */
export const CATALOG_OPERATIONS = {
  agentSettingsSchema: { method: 'GET', path: '/api/v1/settings/agent-schema' },
  conversationSettingsSchema: { method: 'GET', path: '/api/v1/settings/conversation-schema' },
  searchModels: {
    method: 'GET',
    path: '/api/v1/config/models/search',
    query: [...PAGE, 'query', 'provider__eq', 'verified__eq'],
  },
  searchProviders: {
    method: 'GET',
    path: '/api/v1/config/providers/search',
    query: [...PAGE, 'query', 'verified__eq'],
  },
  searchSkills: { method: 'GET', path: '/api/v1/skills/search', query: PAGE },
  gitInfo: { method: 'GET', path: '/api/v1/users/git-info' },
} as const satisfies Record<string, Operation>;
