export { AgentServerClient, type AgentServerClientOptions } from './agent-server/client.ts';
export type { AgentServerApi } from './agent-server/agent-server-api.ts';
export type * from './agent-server/types.ts';
export type { WithDefaults } from './request-defaults.ts';
export { ServerProbes, type TransportOptions } from './server-probes.ts';
export type { AppServerApi } from './app-server/app-server-api.ts';
export type { AnswerOf, Method, OperationAt, PathWith, RequestArgs, RequestOf } from './operation-types.ts';
export { TypedCalls } from './typed-calls.ts';
export { AppServerClient, type AppServerClientOptions } from './app-server/client.ts';
export { BATCH_LIMIT, everyPage, inBatches } from './paging.ts';
export {
  type ConversationEventSearch,
  followConversationEvents,
  iterateConversationEvents,
} from './app-server/conversation-events.ts';
export { waitForStartTask } from './app-server/conversation-starts.ts';
export { downloadAppConversation } from './app-server/conversation-files.ts';
export {
  BosunApiError,
  BosunClientError,
  BosunNetworkError,
  BosunSocketError,
  BosunTimeoutError,
  BosunTooLargeError,
} from './errors.ts';
export { type FollowEventsOptions, type ReconnectOptions, followEvents } from './events-socket.ts';
export {
  type CallOptions,
  HttpClient,
  type HttpClientOptions,
  type HttpRequest,
  type HttpResponse,
  type QueryValue,
  pathOf,
  queryString,
} from './http.ts';
export { type Transport, type TransportResponse, defaultTransport } from './transport.ts';
