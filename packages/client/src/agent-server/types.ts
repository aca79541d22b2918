import type {
  ConfirmationResponseRequest,
  ConversationExecutionStatus,
  ConversationInfo,
  EventSource,
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
import type { Narrowed, QueryOf } from './operations.ts';
import type { WireInput } from './wire-input.ts';

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

export type ConversationSortOrder = 'CREATED_AT' | 'UPDATED_AT' | 'CREATED_AT_DESC' | 'UPDATED_AT_DESC';

export type ConversationSearchQuery = Narrowed<
  QueryOf<'searchConversations'>,
  { page_id?: string; limit?: number; status?: ConversationExecutionStatus; sort_order?: ConversationSortOrder }
>;
export type ConversationCountQuery = Narrowed<QueryOf<'countConversations'>, { status?: ConversationExecutionStatus }>;

/** Which events: by kind (`MessageEvent`), source, text in a message, and time (ISO-8601). */
export type EventFilterQuery = Narrowed<
  QueryOf<'countEvents'>,
  { kind?: string; source?: EventSource; body?: string; timestamp__gte?: string; timestamp__lt?: string }
>;
export type EventSearchQuery = Narrowed<
  QueryOf<'searchEvents'>,
  EventFilterQuery & {
    page_id?: string;
    /** Only events after this one (exclusive): a resume cursor. */
    after_event_id?: string;
    limit?: number;
    sort_order?: 'TIMESTAMP' | 'TIMESTAMP_DESC';
  }
>;

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
