import type { Operation } from '../../agent-server/operations.ts';

const FILTERS = ['kind__eq', 'kind', 'source', 'timestamp__gte', 'timestamp__lt'] as const;

/** OpenHands' read-only sharing (outside `/api/v1`, no credentials needed). */
export const SHARED_OPERATIONS = {
  getSharedConversations: { method: 'GET', path: '/api/shared-conversations', query: ['ids'] },
  searchSharedEvents: {
    method: 'GET',
    path: '/api/shared-events/search',
    query: ['conversation_id', ...FILTERS, 'sort_order', 'page_id', 'after_event_id', 'limit'],
  },
  countSharedEvents: { method: 'GET', path: '/api/shared-events/count', query: ['conversation_id', ...FILTERS] },
  getSharedEvents: { method: 'GET', path: '/api/shared-events', query: ['conversation_id', 'id'] },
  getSharedEvent: { method: 'GET', path: '/api/shared-events/{conversation_id}/{event_id}' },
} as const satisfies Record<string, Operation>;
