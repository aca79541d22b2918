import type { Operation } from '../../agent-server/operations.ts';

const EVENTS = '/api/v1/conversation/{conversation_id}/events';
const FILTERS = ['kind__eq', 'kind', 'source', 'timestamp__gte', 'timestamp__lt'] as const;

/** The routes of a conversation's events, from the app's own store. */
export const EVENT_OPERATIONS = {
  searchConversationEvents: {
    method: 'GET',
    path: `${EVENTS}/search`,
    query: [...FILTERS, 'sort_order', 'page_id', 'after_event_id', 'limit'],
  },
  countConversationEvents: { method: 'GET', path: `${EVENTS}/count`, query: FILTERS },
  getConversationEvents: { method: 'GET', path: EVENTS, query: ['id'] },
} as const satisfies Record<string, Operation>;
