import { expect } from 'vitest';
import {
  type WrongUserCase,
  as,
  conversationUnchanged,
  sandboxUnchanged,
  strangerCalls,
  strangerFinds,
} from './ownership-support.ts';

/** The routes of the application's conversations and their start tasks, as another user than the owner. */
export const CONVERSATION_CASES: Record<string, WrongUserCase> = {
  'GET /api/v1/app-conversations': {
    expected: 'own',
    attempt: strangerFinds([null], ({ conversationId }) => `?ids=${conversationId}`),
  },
  'POST /api/v1/app-conversations': {
    expected: 'own',
    echoes: ['sandboxId'],
    // Naming the owner's sandbox: the stranger's task ends in ERROR, the sandbox untouched.
    attempt: (api, { stranger, sandboxId }) =>
      api.call('/api/v1/app-conversations', { method: 'POST', ...as(stranger), body: { sandbox_id: sandboxId } }),
    unchanged: sandboxUnchanged,
  },
  'POST /api/v1/app-conversations/stream-start': {
    expected: 'own',
    echoes: ['sandboxId'],
    attempt: async (api, { stranger, sandboxId }) => {
      const answer = await api.call('/api/v1/app-conversations/stream-start', {
        method: 'POST',
        ...as(stranger),
        body: { sandbox_id: sandboxId },
      });
      expect(answer.body.at(-1)).toMatchObject({ status: 'ERROR', created_by_user_id: stranger.id });
      return answer;
    },
    unchanged: sandboxUnchanged,
  },
  'GET /api/v1/app-conversations/search': {
    expected: 'own',
    attempt: strangerFinds({ items: [] }),
  },
  'GET /api/v1/app-conversations/count': {
    expected: 'own',
    attempt: strangerFinds(0),
  },
  'PATCH /api/v1/app-conversations/{conversation_id}': {
    expected: 404,
    // Making it public would hand the owner's conversation to anyone: it stays private.
    attempt: strangerCalls({ title: 'taken over', public: true }),
    unchanged: async (api, owned) => {
      await conversationUnchanged(api, owned);
      expect((await api.call(`/api/shared-conversations?ids=${owned.conversationId}`)).body).toEqual([null]);
    },
  },
  'DELETE /api/v1/app-conversations/{conversation_id}': {
    expected: 404,
    attempt: strangerCalls(),
    unchanged: conversationUnchanged,
  },
  'POST /api/v1/app-conversations/{conversation_id}/send-message': {
    expected: 404,
    attempt: strangerCalls({ content: [{ type: 'text', text: 'hello' }] }),
    unchanged: conversationUnchanged,
  },
  'POST /api/v1/app-conversations/{conversation_id}/pause': {
    expected: 404,
    attempt: strangerCalls(),
    unchanged: sandboxUnchanged,
  },
  'POST /api/v1/app-conversations/{conversation_id}/resume': {
    expected: 404,
    attempt: strangerCalls(),
    unchanged: sandboxUnchanged,
  },
  'GET /api/v1/app-conversations/{conversation_id}/file': {
    expected: 404,
    attempt: (api, { stranger, conversationId }) =>
      api.call(`/api/v1/app-conversations/${conversationId}/file?file_path=README.md`, as(stranger)),
  },
  'GET /api/v1/app-conversations/{conversation_id}/git/changes': { expected: 404, attempt: strangerCalls() },
  'GET /api/v1/app-conversations/{conversation_id}/git/diff': {
    expected: 404,
    attempt: (api, { stranger, conversationId }) =>
      api.call(`/api/v1/app-conversations/${conversationId}/git/diff?path=README.md`, as(stranger)),
  },
  'GET /api/v1/app-conversations/{conversation_id}/skills': { expected: 404, attempt: strangerCalls() },
  'GET /api/v1/app-conversations/{conversation_id}/hooks': { expected: 404, attempt: strangerCalls() },
  'GET /api/v1/app-conversations/{conversation_id}/download': { expected: 404, attempt: strangerCalls() },
  'GET /api/v1/app-conversations/start-tasks': {
    expected: 'own',
    attempt: strangerFinds([null], ({ taskId }) => `?ids=${taskId}`),
  },
  'GET /api/v1/app-conversations/start-tasks/search': {
    expected: 'own',
    attempt: strangerFinds({ items: [] }, ({ conversationId }) => `?conversation_id__eq=${conversationId}`),
  },
  'GET /api/v1/app-conversations/start-tasks/count': {
    expected: 'own',
    attempt: strangerFinds(0, ({ conversationId }) => `?conversation_id__eq=${conversationId}`),
  },
  'POST /api/v1/webhooks/conversations': {
    // A user's API key is no sandbox's session key.
    expected: 401,
    attempt: (api, { stranger, conversationId }) =>
      api.call('/api/v1/webhooks/conversations', {
        method: 'POST',
        headers: { 'X-Session-API-Key': stranger.key },
        body: { id: conversationId, title: 'taken over', execution_status: 'running' },
      }),
    unchanged: conversationUnchanged,
  },
  'GET /api/v1/web-client/config': { expected: 'public' },
};
