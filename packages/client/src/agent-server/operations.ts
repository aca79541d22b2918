import type { QueryValue } from '../http.ts';
import { PROBE_OPERATIONS } from '../server-probes.ts';

/** One route of the agent server the client calls: its method, path template, query parameters and body. */
export interface Operation {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** OpenAPI's template: `{name}` for each path parameter. */
  path: string;
  query?: readonly string[];
  /** Whether the request has a JSON body. */
  body?: true;
}

const EVENT_FILTER = ['kind', 'source', 'body', 'timestamp__gte', 'timestamp__lt'] as const;
const CONVERSATION = '/api/conversations/{conversation_id}';

/**
 * Every route the agent server client calls. The contract test checks each against the agent server's OpenAPI
 * document (method, path, parameters, body), so a renamed route or parameter fails it.
 */
export const AGENT_SERVER_OPERATIONS = {
  ...PROBE_OPERATIONS,
  serverInfo: { method: 'GET', path: '/server_info' },
  listTools: { method: 'GET', path: '/api/tools/' },
  listModels: { method: 'GET', path: '/v1/models' },
  getSkills: { method: 'POST', path: '/api/skills', body: true },
  executeBashCommand: { method: 'POST', path: '/api/bash/execute_bash_command', body: true },
  uploadFile: { method: 'POST', path: '/api/file/upload', query: ['path'], body: true },
  downloadFile: { method: 'GET', path: '/api/file/download', query: ['path'] },
  gitChanges: { method: 'GET', path: '/api/git/changes', query: ['path', 'ref'] },
  gitDiff: { method: 'GET', path: '/api/git/diff', query: ['path', 'ref', 'commit'] },
  getHooks: { method: 'POST', path: '/api/hooks', body: true },

  startConversation: { method: 'POST', path: '/api/conversations', body: true },
  getConversations: { method: 'GET', path: '/api/conversations', query: ['ids'] },
  searchConversations: {
    method: 'GET',
    path: '/api/conversations/search',
    query: ['page_id', 'limit', 'status', 'sort_order'],
  },
  countConversations: { method: 'GET', path: '/api/conversations/count', query: ['status'] },
  getConversation: { method: 'GET', path: CONVERSATION },
  updateConversation: { method: 'PATCH', path: CONVERSATION, body: true },
  deleteConversation: { method: 'DELETE', path: CONVERSATION },
  run: { method: 'POST', path: `${CONVERSATION}/run` },
  pause: { method: 'POST', path: `${CONVERSATION}/pause` },
  interrupt: { method: 'POST', path: `${CONVERSATION}/interrupt` },
  condense: { method: 'POST', path: `${CONVERSATION}/condense` },
  fork: { method: 'POST', path: `${CONVERSATION}/fork`, body: true },
  switchLlm: { method: 'POST', path: `${CONVERSATION}/switch_llm`, body: true },
  loadPlugin: { method: 'POST', path: `${CONVERSATION}/load_plugin`, body: true },
  updateSecrets: { method: 'POST', path: `${CONVERSATION}/secrets`, body: true },
  setConfirmationPolicy: { method: 'POST', path: `${CONVERSATION}/confirmation_policy`, body: true },
  setSecurityAnalyzer: { method: 'POST', path: `${CONVERSATION}/security_analyzer`, body: true },
  respondToConfirmation: { method: 'POST', path: `${CONVERSATION}/events/respond_to_confirmation`, body: true },
  agentFinalResponse: { method: 'GET', path: `${CONVERSATION}/agent_final_response` },
  listRecordings: { method: 'GET', path: `${CONVERSATION}/recordings` },
  downloadRecording: { method: 'GET', path: `${CONVERSATION}/recordings/{file_name}` },

  sendMessage: { method: 'POST', path: `${CONVERSATION}/events`, body: true },
  getEvents: { method: 'POST', path: `${CONVERSATION}/events/batch`, body: true },
  searchEvents: {
    method: 'GET',
    path: `${CONVERSATION}/events/search`,
    query: [...EVENT_FILTER, 'page_id', 'after_event_id', 'limit', 'sort_order'],
  },
  countEvents: { method: 'GET', path: `${CONVERSATION}/events/count`, query: EVENT_FILTER },
  getEvent: { method: 'GET', path: `${CONVERSATION}/events/{event_id}` },
} as const satisfies Record<string, Operation>;

export type AgentServerOperations = typeof AGENT_SERVER_OPERATIONS;
export type AgentServerOperationName = keyof AgentServerOperations;

/** The query parameters an operation takes, by the names the table gives. */
export type QueryOf<N extends AgentServerOperationName> = AgentServerOperations[N] extends {
  query: readonly (infer K extends string)[];
}
  ? { [P in K]?: QueryValue }
  : never;

/** `Q` with some of its own parameters given narrower types (a name `Q` does not have is a type error). */
export type Narrowed<Q, R extends { [K in keyof R]: K extends keyof Q ? unknown : never }> = Omit<Q, keyof R> & R;
