import type {
  ConfirmationResponseRequest,
  ConversationInfo,
  ExecuteBashRequest,
  ForkConversationRequest,
  LoadPluginRequest,
  Secrets,
  SendMessageRequest,
  SetConfirmationPolicyRequest,
  SetSecurityAnalyzerRequest,
  SkillsRequest,
  StartConversationRequest,
  StoredEvent,
  SwitchLLMRequest,
  UpdateConversationRequest,
} from '@bosun/protocol';
import type { Static } from '@sinclair/typebox';
import type { OperationAt, PathWith } from '../operation-types.ts';
import type { AgentServerApi } from './agent-server-api.ts';
import type { WireApi, WireInput } from './wire-input.ts';

/** A page of a search; `next_page_id` (null on the last page) asks for the next one. */
export interface Page<T> {
  items: T[];
  next_page_id: string | null;
}

export type ConversationPage = Page<ConversationInfo>;
export type EventPage = Page<StoredEvent>;

export type StartConversationInput = WireInput<StartConversationRequest>;
export type SendMessageInput = WireInput<SendMessageRequest>;
export type ForkConversationInput = WireInput<ForkConversationRequest>;
export type SwitchLlmInput = WireInput<SwitchLLMRequest>;
export type SkillsInput = WireInput<SkillsRequest>;
export type ExecuteBashInput = WireInput<ExecuteBashRequest>;
export type UpdateConversationInput = WireInput<UpdateConversationRequest>;
export type LoadPluginInput = WireInput<LoadPluginRequest>;
export type ConfirmationPolicyInput = WireInput<SetConfirmationPolicyRequest>;
export type SecurityAnalyzerInput = WireInput<SetSecurityAnalyzerRequest>;
export type ConfirmationResponseInput = WireInput<ConfirmationResponseRequest>;
/** Secrets by name: a string, or `{"value": ...}`; added to (or replacing) the conversation's. */
export type SecretsInput = Static<typeof Secrets>;

/** The query of the agent server's operation at `P` (with method `get`). */
type QueryAt<P extends PathWith<AgentServerApi, 'get'>> = OperationAt<AgentServerApi, P, 'get'> extends {
  query?: infer Q;
}
  ? NonNullable<Q>
  : never;

export type ConversationSortOrder = NonNullable<ConversationSearchQuery['sort_order']>;
export type ConversationSearchQuery = QueryAt<'/api/conversations/search'>;
export type ConversationCountQuery = QueryAt<'/api/conversations/count'>;
/** Which events: by kind (`MessageEvent`), source, text in a message, and time (ISO-8601). */
export type EventFilterQuery = QueryAt<'/api/conversations/{conversation_id}/events/count'>;
/** `EventFilterQuery` with paging and order; `after_event_id` (exclusive) is a resume cursor. */
export type EventSearchQuery = QueryAt<'/api/conversations/{conversation_id}/events/search'>;

/** The agent server's operations as the client sends them: request bodies may leave out defaulted properties. */
export type AgentServerWireApi = WireApi<AgentServerApi>;

export type { ServerStatus } from '../server-probes.ts';

/** `GET /server_info`. */
export interface ServerInfo {
  title: string;
  version: string;
  /** Seconds since start. */
  uptime: number;
  /** Seconds since the last activity. */
  idle_time: number;
  node_version: string;
  docs: string;
}

/** `GET /v1/models` (OpenAI's list). */
export interface ModelList {
  object: 'list';
  data: { id: string; object: 'model'; created: number; owned_by: string }[];
}

export interface Recording {
  name: string;
  size_bytes: number;
  modified_at: string;
}
