import type { MessageContent, ResolvedStartRequest, TextContent, ValidationError } from '@bosun/protocol';
import type { Conversation } from './conversation.ts';

/** How a run is told to end early. */
export interface RunSignals {
  /** The server is stopping: everything in flight is cancelled (LLM calls, retries, tool commands). */
  stop: AbortSignal;
  /** The conversation was paused: no LLM retry and no new step; the step in flight completes. */
  pause: AbortSignal;
}

/**
 * Drives a conversation's agent for one run. The agent server starts runs; what a run does is the runner's
 * business. Until an agent is plugged in, the server uses `idleRunner`.
 */
export interface AgentRunner {
  /** Problems with a start request that this runner cannot run (unknown tools, ...), as 422 details. */
  validate?(request: ResolvedStartRequest): ValidationError[];
  /** Called once when a conversation is created, before anything else is appended to it. */
  prepare?(conversation: Conversation): Promise<void>;
  run(conversation: Conversation, signals?: RunSignals): Promise<void>;
  /** Told when `run` threw (not when it was cancelled): the error becomes a ConversationErrorEvent too. */
  crashed?(conversation: Conversation, error: unknown): void;
  /**
   * Condenses the conversation's history now (`POST .../condense`): false when nothing can be forgotten. Throws
   * `NoCondenserError` when the conversation has no condenser.
   */
  condense?(conversation: Conversation): Promise<boolean>;
  /** Stops the run in progress at once: the LLM call in flight is cancelled, tools are told to stop. */
  interrupt?(conversation: Conversation): void;
  /** Called before a user message is appended (actions waiting for confirmation are rejected then). */
  beforeUserMessage?(conversation: Conversation): Promise<void>;
  /**
   * What the conversation's UserPromptSubmit hooks make of a user message before it is appended: `blocked` (the
   * reason) keeps it from the LLM (`blocked_messages`); `extended_content` is added to it. `activated_skills`:
   * the skills the message triggered (their content is in `extended_content`), each once per conversation.
   */
  reviewUserMessage?(
    conversation: Conversation,
    content: readonly MessageContent[],
  ): Promise<{ blocked: string | null; extended_content: TextContent[]; activated_skills?: string[] }>;
}

/** A runner without an agent: the run starts and ends at once, leaving the conversation idle. */
export const idleRunner: AgentRunner = {
  async run(conversation) {
    await conversation.setStatus('idle');
  },
};
