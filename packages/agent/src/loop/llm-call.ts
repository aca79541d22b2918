import { randomUUID } from 'node:crypto';
import type { NewEvent } from '@bosun/protocol';
import type { LLMAttemptFailure, LLMCallObserver, LLMResponse } from '../llm/types.ts';
import type { AgentSession } from '../session/session.ts';

/** The state-update key under which a failing LLM call's retries are published as they happen. */
export const LLM_RETRY_KEY = 'llm_retry';

/**
 * One LLM call of the run loop, observed: what it streams goes to the session (`streamAnswer`, never stored),
 * each stream ending `done` (its events follow) or `discarded` (the attempt failed: its text is void); each
 * retry is stored as it happens (`llm_retry` state update: attempt, wait, error), and cleared (`value: null`)
 * once the call succeeds or fails for good.
 */
export async function observedCall(
  session: AgentSession,
  call: (observer: LLMCallObserver) => Promise<LLMResponse>,
): Promise<LLMResponse> {
  const stream = session.streamAnswer?.bind(session);
  let streamId = '';
  let streamed = false;
  let retried = false;
  const observer: LLMCallObserver = {
    attemptStarted() {
      streamId = randomUUID();
      streamed = false;
    },
    ...(stream
      ? {
          delta(delta) {
            streamed = true;
            stream({ streamId, delta });
          },
        }
      : {}),
    async attemptFailed(failure) {
      if (streamed) stream?.({ streamId, end: 'discarded' });
      streamed = false;
      if (failure.retryInSeconds === null) return;
      retried = true;
      await publish(session, retryEvent(failure));
    },
  };
  try {
    const response = await call(observer);
    if (streamed) stream?.({ streamId, end: 'done', llmResponseId: response.id });
    return response;
  } finally {
    if (retried) await publish(session, { ...retryEvent(null) });
  }
}

/** Appends a notice; a conversation that cannot take it (deleted meanwhile) does not fail the call for it. */
async function publish(session: AgentSession, event: NewEvent): Promise<void> {
  await session.append([event]).catch(() => undefined);
}

function retryEvent(failure: LLMAttemptFailure | null): NewEvent {
  const at = new Date();
  const value = failure && {
    attempt: failure.attempt,
    max_attempts: failure.maxAttempts,
    delay_s: failure.retryInSeconds,
    error: failure.error.message,
    error_type: failure.error.name,
    at: at.toISOString(),
    next_attempt_at: new Date(at.getTime() + (failure.retryInSeconds ?? 0) * 1000).toISOString(),
  };
  return { kind: 'ConversationStateUpdateEvent', source: 'environment', key: LLM_RETRY_KEY, value };
}
