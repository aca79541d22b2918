import type { Operation } from '../../agent-server/operations.ts';

const PAGE = ['page_id', 'limit'] as const;
const FILTERS = [
  'title__contains',
  'created_at__gte',
  'created_at__lt',
  'updated_at__gte',
  'updated_at__lt',
  'sandbox_id__eq',
] as const;
const TASK_FILTERS = ['conversation_id__eq', 'created_at__gte'] as const;
const CONVERSATION = '/api/v1/app-conversations/{conversation_id}';

/** The routes of the application's conversations and their start tasks. */
export const CONVERSATION_OPERATIONS = {
  startConversation: { method: 'POST', path: '/api/v1/app-conversations', body: true },
  streamStartConversation: { method: 'POST', path: '/api/v1/app-conversations/stream-start', body: true },
  getStartTasks: { method: 'GET', path: '/api/v1/app-conversations/start-tasks', query: ['ids'] },
  searchStartTasks: {
    method: 'GET',
    path: '/api/v1/app-conversations/start-tasks/search',
    query: [...TASK_FILTERS, 'sort_order', ...PAGE],
  },
  countStartTasks: { method: 'GET', path: '/api/v1/app-conversations/start-tasks/count', query: TASK_FILTERS },
  getAppConversations: { method: 'GET', path: '/api/v1/app-conversations', query: ['ids'] },
  searchAppConversations: { method: 'GET', path: '/api/v1/app-conversations/search', query: [...FILTERS, ...PAGE] },
  countAppConversations: { method: 'GET', path: '/api/v1/app-conversations/count', query: FILTERS },
  updateAppConversation: { method: 'PATCH', path: CONVERSATION, body: true },
  deleteAppConversation: { method: 'DELETE', path: CONVERSATION },
  sendAppMessage: { method: 'POST', path: `${CONVERSATION}/send-message`, body: true },
  pauseAppConversation: { method: 'POST', path: `${CONVERSATION}/pause` },
  resumeAppConversation: { method: 'POST', path: `${CONVERSATION}/resume` },
  readAppConversationFile: { method: 'GET', path: `${CONVERSATION}/file`, query: ['file_path'] },
  appConversationGitChanges: { method: 'GET', path: `${CONVERSATION}/git/changes`, query: ['path', 'ref'] },
  appConversationGitDiff: { method: 'GET', path: `${CONVERSATION}/git/diff`, query: ['path', 'ref'] },
  appConversationSkills: { method: 'GET', path: `${CONVERSATION}/skills` },
  appConversationHooks: { method: 'GET', path: `${CONVERSATION}/hooks` },
  downloadAppConversation: { method: 'GET', path: `${CONVERSATION}/download` },
  queuePendingMessage: {
    method: 'POST',
    path: '/api/v1/conversations/{conversation_id}/pending-messages',
    body: true,
  },
  webClientConfig: { method: 'GET', path: '/api/v1/web-client/config' },
  buildLaunchLink: { method: 'POST', path: '/api/v1/launch/link', body: true },
  decodeLaunchLink: { method: 'GET', path: '/api/v1/launch/decode', query: ['plugins', 'message'] },
} as const satisfies Record<string, Operation>;
