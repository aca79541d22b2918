import type { Operation } from '../../agent-server/operations.ts';

const PAGE = ['page_id', 'limit'] as const;

/** The routes that browse the caller's Git provider (repositories, branches, installations, tasks, organizations). */
export const GIT_BROWSE_OPERATIONS = {
  searchGitRepositories: {
    method: 'GET',
    path: '/api/v1/git/repositories/search',
    query: ['provider', 'query', 'installation_id', 'sort_order', ...PAGE],
  },
  searchGitBranches: {
    method: 'GET',
    path: '/api/v1/git/branches/search',
    query: ['provider', 'repository', 'query', ...PAGE],
  },
  searchGitInstallations: { method: 'GET', path: '/api/v1/git/installations/search', query: ['provider', ...PAGE] },
  searchSuggestedTasks: { method: 'GET', path: '/api/v1/git/suggested-tasks/search', query: PAGE },
  gitOrganizations: { method: 'GET', path: '/api/v1/users/git-organizations' },
} as const satisfies Record<string, Operation>;
