import type { ConversationInfo, Secrets, StoredEvent } from '@bosun/protocol';
import type { Static } from '@sinclair/typebox';
import type { OperationAt, PathWith } from '../operation-types.ts';
import type { AgentServerApi } from './agent-server-api.ts';

/** A page of a search; `next_page_id` (null on the last page) asks for the next one. */
export interface Page<T> {
  items: T[];
  next_page_id: string | null;
}

export type ConversationPage = Page<ConversationInfo>;
export type EventPage = Page<StoredEvent>;

/** The body the agent server's operation at `P` with `M` takes, as it may be sent (defaulted properties optional). */
type BodyAt<P extends PathWith<AgentServerApi, M>, M extends 'post' | 'patch'> = OperationAt<
  AgentServerApi,
  P,
  M
> extends { body?: infer B }
  ? NonNullable<B>
  : never;

type Conversation = '/api/conversations/{conversation_id}';

export type StartConversationInput = BodyAt<'/api/conversations', 'post'>;
export type SendMessageInput = BodyAt<`${Conversation}/events`, 'post'>;
export type ForkConversationInput = BodyAt<`${Conversation}/fork`, 'post'>;
export type SwitchLlmInput = BodyAt<`${Conversation}/switch_llm`, 'post'>;
export type SkillsInput = BodyAt<'/api/skills', 'post'>;
export type ExecuteBashInput = BodyAt<'/api/bash/execute_bash_command', 'post'>;
export type UpdateConversationInput = BodyAt<Conversation, 'patch'>;
export type LoadPluginInput = BodyAt<`${Conversation}/load_plugin`, 'post'>;
export type ConfirmationPolicyInput = BodyAt<`${Conversation}/confirmation_policy`, 'post'>;
export type SecurityAnalyzerInput = BodyAt<`${Conversation}/security_analyzer`, 'post'>;
export type ConfirmationResponseInput = BodyAt<`${Conversation}/events/respond_to_confirmation`, 'post'>;
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
