import type { Operation } from '../../agent-server/operations.ts';

const PAGE = ['page_id', 'limit'] as const;

/** The routes of the caller's account: who they are, their keys, settings and secrets. */
export const ACCOUNT_OPERATIONS = {
  signOut: { method: 'POST', path: '/api/v1/auth/sign-out' },
  loginMethods: { method: 'GET', path: '/api/v1/auth/providers' },
  me: { method: 'GET', path: '/api/v1/users/me' },
  listApiKeys: { method: 'GET', path: '/api/v1/keys' },
  createApiKey: { method: 'POST', path: '/api/v1/keys', body: true },
  deleteApiKey: { method: 'DELETE', path: '/api/v1/keys/{key_id}' },
  getSettings: { method: 'GET', path: '/api/v1/settings' },
  updateSettings: { method: 'POST', path: '/api/v1/settings', body: true },
  checkLlm: { method: 'POST', path: '/api/v1/settings/llm/check', body: true },
  createSecret: { method: 'POST', path: '/api/v1/secrets', body: true },
  searchSecrets: { method: 'GET', path: '/api/v1/secrets/search', query: ['name__contains', ...PAGE] },
  updateSecret: { method: 'PUT', path: '/api/v1/secrets/{secret_id}', body: true },
  deleteSecret: { method: 'DELETE', path: '/api/v1/secrets/{secret_id}' },
  storeGitProviderTokens: { method: 'POST', path: '/api/v1/secrets/git-providers', body: true },
  deleteGitProviderTokens: { method: 'DELETE', path: '/api/v1/secrets/git-providers' },
} as const satisfies Record<string, Operation>;
