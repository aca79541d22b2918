import { expect } from 'vitest';
import { type WrongUserCase, as, strangerCalls } from './ownership-support.ts';

/** The wrong user on the routes of a conversation's events, and a user's API key on the events webhook. */
export const EVENT_CASES: Record<string, WrongUserCase> = {
  'GET /api/v1/conversation/{conversation_id}/events/search': {
    expected: 404,
    attempt: strangerCalls(),
  },
  'GET /api/v1/conversation/{conversation_id}/events/count': {
    expected: 404,
    attempt: strangerCalls(),
  },
  'GET /api/v1/conversation/{conversation_id}/events': {
    expected: 404,
    attempt: (api, { stranger, conversationId, eventId }) =>
      api.call(`/api/v1/conversation/${conversationId}/events?id=${eventId}`, as(stranger)),
  },
  'POST /api/v1/webhooks/events/{conversation_id}': {
    // A user's API key is no sandbox's session key.
    expected: 401,
    attempt: (api, { stranger, conversationId }) =>
      api.call(`/api/v1/webhooks/events/${conversationId}`, {
        method: 'POST',
        headers: { 'X-Session-API-Key': stranger.key },
        body: [{ kind: 'PauseEvent', id: 'stranger-event', timestamp: '2026-01-01T00:00:00Z', source: 'user' }],
      }),
    unchanged: async (api, { owner, conversationId }) =>
      expect((await api.call(`/api/v1/conversation/${conversationId}/events/count`, as(owner))).body).toBe(1),
  },
};
