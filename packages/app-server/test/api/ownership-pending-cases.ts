import { expect } from 'vitest';
import { type WrongUserCase, as } from './ownership-support.ts';

const message = { content: [{ type: 'text', text: 'taken over' }] };

/** Pending messages, queued by another user for the owner's start task and conversation. */
export const PENDING_CASES: Record<string, WrongUserCase> = {
  'POST /api/v1/conversations/{conversation_id}/pending-messages': {
    expected: 404,
    attempt: async (api, { stranger, taskId, conversationId }) => {
      const toTask = await api.call(`/api/v1/conversations/task-${taskId}/pending-messages`, {
        method: 'POST',
        ...as(stranger),
        body: message,
      });
      expect(toTask.status, toTask.text).toBe(404);
      return api.call(`/api/v1/conversations/${conversationId}/pending-messages`, {
        method: 'POST',
        ...as(stranger),
        body: message,
      });
    },
    unchanged: async (api, { conversationId, taskId }) => {
      const { pendingMessages } = api.repositories;
      expect(await pendingMessages.waiting({ taskId: null, conversationId })).toBe(0);
      expect(await pendingMessages.waiting({ taskId, conversationId: null })).toBe(0);
      expect(await pendingMessages.targetsWaiting()).toEqual({ conversationIds: [], taskIds: [] });
    },
  },
};
