import type { Event, Message } from '@bosun/protocol';
import { isContextWindowError } from '../llm/errors.ts';
import type { LLMResponse } from '../llm/types.ts';
import { conversationError } from '../session/events.ts';
import { buildMessages } from '../session/messages.ts';
import type { AgentSession } from '../session/session.ts';
import type { SummarizingCondenser } from './condenser.ts';

/** The `ConversationErrorEvent` code of a run whose history no longer fits the model's context window. */
export const CONTEXT_WINDOW_CODE = 'LLMContextWindowExceedError';
/** How many times one step condenses and retries after context-window errors before giving up. */
const MAX_CONTEXT_RETRIES = 5;

/**
 * The LLM call of a step, with condensation around it: condense first when the view calls for it, then call; on
 * a context-window error, request a condensation and retry with the condensed view. Without a condenser (or
 * once nothing more can be forgotten) the run ends in `error` with code `LLMContextWindowExceedError`, and this
 * resolves undefined.
 */
export async function completeWithCondensation(options: {
  session: AgentSession;
  history: readonly Event[];
  condenser: SummarizingCondenser | undefined;
  complete: (messages: Message[]) => Promise<LLMResponse>;
  signal?: AbortSignal;
  /** A pause: ends the retrying of the condenser's failing LLM calls. */
  retries?: AbortSignal;
  /** Messages the LLM must not see (user messages a hook blocked), by event id. */
  hiddenMessageIds?: ReadonlySet<string>;
}): Promise<LLMResponse | undefined> {
  const { session, condenser, complete, signal, retries } = options;
  let history = condenser ? await condenser.condenseIfNeeded(session, signal, retries) : options.history;
  for (let retry = 0; ; retry++) {
    try {
      return await complete(buildMessages(history, undefined, options.hiddenMessageIds));
    } catch (error) {
      if (!isContextWindowError(error)) throw error;
      const message = (error as Error).message;
      if (!condenser) {
        await contextWindowError(
          session,
          `The conversation no longer fits in the model's context window, and the agent has no condenser (agent.condenser) to shorten it. ${message}`,
        );
        return undefined;
      }
      if (retry >= MAX_CONTEXT_RETRIES || !(await condenser.condenseOnRequest(session, signal, retries))) {
        await contextWindowError(
          session,
          `The conversation no longer fits in the model's context window, even condensed as far as the condenser can (keep_first ${condenser.settings.keepFirst}). ${message}`,
        );
        return undefined;
      }
      history = await session.history();
    }
  }
}

async function contextWindowError(session: AgentSession, detail: string): Promise<void> {
  await session.setStatus('error', [conversationError(CONTEXT_WINDOW_CODE, detail)]);
}
