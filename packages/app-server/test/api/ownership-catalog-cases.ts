import { ownersEntries } from './ownership-marketplace-cases.ts';
import { type WrongUserCase, strangerCalls, strangerFinds } from './ownership-support.ts';

/**
 * The catalog routes read the caller's own data only: the owner's model (their settings) is not among the
 * stranger's models, the owner's Auto-Load marketplace brings the stranger no skill, and the owner's GitHub token
 * is no Git account of the stranger's (403: they connected none).
 */
export const CATALOG_CASES: Record<string, WrongUserCase> = {
  'GET /api/v1/settings/agent-schema': { expected: 'own', attempt: strangerCalls() },
  'GET /api/v1/settings/conversation-schema': { expected: 'own', attempt: strangerCalls() },
  'GET /api/v1/config/models/search': { expected: 'own', attempt: strangerFinds({ items: [] }, () => '?query=owner') },
  'GET /api/v1/config/providers/search': { expected: 'own', attempt: strangerCalls() },
  'GET /api/v1/skills/search': {
    expected: 'own',
    attempt: async (api, owned, route) => {
      await ownersEntries(api, owned);
      return strangerFinds({ items: [], next_page_id: null })(api, owned, route);
    },
  },
  'GET /api/v1/users/git-info': { expected: 403, attempt: strangerCalls() },
};
