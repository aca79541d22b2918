import type {
  AgentSpec,
  ConfirmationPolicy,
  ConversationExecutionStatus,
  NewEvent,
  SecurityAnalyzer,
  StoredEvent,
} from '@bosun/protocol';
import type { LLMDelta, LLMUsage } from '../llm/types.ts';

/** One LLM call, as a session adds it up: its configuration's `usage_id`, its model, tokens, cost and latency. */
export interface UsageRecord {
  usageId: string;
  model: string;
  usage: LLMUsage;
  cost: number;
  latencyMs: number;
  responseId: string;
}

/**
 * A piece of the agent's LLM answer as it streams. Each attempt of a call has its own `streamId`; its last part
 * has `end`: `done` (the answer is complete, its events follow with `llm_response_id`) or `discarded` (the
 * attempt failed or was cancelled: forget its text; a retry streams again under a new id).
 */
export interface AnswerStreamPart {
  streamId: string;
  delta?: LLMDelta;
  end?: 'done' | 'discarded';
  llmResponseId?: string;
}

/**
 * What the run loop needs from the conversation it runs in. The agent server implements it over its durable
 * log; anything else (a test, an embedding application) can too.
 */
export interface AgentSession {
  readonly id: string;
  readonly agent: AgentSpec;
  readonly maxIterations: number;
  /** Whether a run that repeats itself stops as `stuck` (default true). */
  readonly stuckDetection?: boolean;
  /** When actions wait for the user; read before every batch of actions (default `NeverConfirm`). */
  confirmationPolicy?(): ConfirmationPolicy;
  /** Who rates the risk of actions (`security_risk`); none leaves it UNKNOWN. */
  securityAnalyzer?(): SecurityAnalyzer | null;
  /** Every event so far, in log order. */
  history(): Promise<readonly StoredEvent[]>;
  /** Appends events durably, in order; resolves with them as stored. */
  append(events: NewEvent[]): Promise<StoredEvent[]>;
  status(): ConversationExecutionStatus;
  /** Moves to `status`, appending `extra` events first (for example the error that caused it). */
  setStatus(status: ConversationExecutionStatus, extra?: NewEvent[]): Promise<void>;
  /** Accumulates an LLM call's usage, cost and latency under its `usageId`. */
  recordUsage(call: UsageRecord): Promise<void>;
  /** User messages a UserPromptSubmit hook blocked, by event id: stored, never sent to the LLM. */
  blockedMessages?(): Readonly<Record<string, string>>;
  /** Told of the agent's answer as the LLM writes it (never stored); without it, answers are not streamed. */
  streamAnswer?(part: AnswerStreamPart): void;
  /** Records that a PreToolUse hook blocked an action (`blocked_actions` of the conversation). */
  blockAction?(actionId: string, reason: string): Promise<void>;
}
