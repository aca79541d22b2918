import type { Event, NewEvent } from '@bosun/protocol';
import { completionLogEvent } from '../llm/completion-log.ts';
import { LLMBadResponseError, LLMError } from '../llm/errors.ts';
import type { LLMProvider } from '../llm/types.ts';
import { type LLMView, llmView } from '../session/llm-view.ts';
import type { AgentSession } from '../session/session.ts';
import { recordResponseUsage } from '../session/usage.ts';
import type { CondenserSettings } from './config.ts';
import { type ForgettingPlan, planForgetting } from './forgetting.ts';
import { estimateTokens, summaryPrompt } from './prompt.ts';

/**
 * Why a view is condensed: a `CondensationRequest` (from `POST .../condense` or a context-window error), too
 * many estimated tokens, or too many events. Only `events` is soft: if its summary fails, the step goes on with
 * the uncondensed view.
 */
export type CondensationReason = 'request' | 'tokens' | 'events';

/**
 * The `LLMSummarizingCondenser` of one agent: decides when the LLM's view is too long, asks its LLM to summarize
 * the forgotten middle, and appends the `Condensation`. Condensations of one conversation never overlap (a
 * `POST .../condense` during a run waits for the run's condensation, or the other way round).
 */
export class SummarizingCondenser {
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    readonly settings: CondenserSettings,
    private readonly provider: LLMProvider,
  ) {}

  /** Why `view` must be condensed now, if it must. */
  reason(view: LLMView): CondensationReason | undefined {
    if (view.unhandledRequest) return 'request';
    const { maxTokens, maxSize } = this.settings;
    if (maxTokens != null && estimateTokens(view.events) > maxTokens) return 'tokens';
    if (view.events.length > maxSize) return 'events';
    return undefined;
  }

  /** What a condensation for `reason` forgets: the middle, leaving a tail that fits the trigger. */
  plan(events: readonly Event[], reason: CondensationReason): ForgettingPlan | undefined {
    const { keepFirst, maxSize, maxTokens } = this.settings;
    const head = Math.min(keepFirst, events.length);
    let keepLast: number;
    if (reason === 'events') keepLast = Math.max(1, Math.floor(maxSize / 2) - keepFirst - 1);
    else if (reason === 'tokens') keepLast = tailWithin(events.slice(head), Math.floor((maxTokens ?? 0) / 2));
    else keepLast = Math.floor((events.length - head) / 2);
    const plan = planForgetting(events, { keepFirst, keepLast });
    // Replacing a single event by a summary would not make a view shorter in events.
    if (reason === 'events' && plan && plan.forgotten.length < 2) return undefined;
    return plan;
  }

  /**
   * Condenses if the view calls for it (a pending request, too many tokens or events); resolves with the history
   * as it is afterwards, which the step builds its LLM messages from.
   */
  condenseIfNeeded(session: AgentSession, signal?: AbortSignal, retries?: AbortSignal): Promise<readonly Event[]> {
    return this.exclusive(async () => {
      const history = await session.history();
      const view = llmView(history);
      const reason = this.reason(view);
      const plan = reason && this.plan(view.events, reason);
      if (!reason || !plan) return history;
      try {
        await this.summarize(session, plan, signal, retries);
      } catch (error) {
        if (reason !== 'events' || !(error instanceof LLMError)) throw error;
        return history;
      }
      return session.history();
    });
  }

  /**
   * Condenses now, as a `CondensationRequest` asks (appended first unless one is pending). False when the view
   * has nothing that can be forgotten; then nothing is appended.
   */
  condenseOnRequest(session: AgentSession, signal?: AbortSignal, retries?: AbortSignal): Promise<boolean> {
    return this.exclusive(async () => {
      const view = llmView(await session.history());
      const plan = this.plan(view.events, 'request');
      if (!plan) return false;
      if (!view.unhandledRequest) await session.append([{ kind: 'CondensationRequest', source: 'environment' }]);
      await this.summarize(session, plan, signal, retries);
      return true;
    });
  }

  /**
   * One summary call over the forgotten events, then the `Condensation` (with the completion log if asked).
   * `retries` (a pause) ends the retrying of a failing call, as it does the agent's.
   */
  private async summarize(
    session: AgentSession,
    plan: ForgettingPlan,
    signal?: AbortSignal,
    retries?: AbortSignal,
  ): Promise<void> {
    const { llm } = this.settings;
    // User messages a hook blocked never reach an LLM, the summarizer included.
    const blocked = session.blockedMessages?.() ?? {};
    const summarized = plan.forgotten.filter((event) => event.id === undefined || !(event.id in blocked));
    const response = await this.provider.complete(
      {
        messages: [
          {
            role: 'user',
            content: [{ type: 'text', text: summaryPrompt(summarized), cache_prompt: false }],
            thinking_blocks: [],
          },
        ],
        tools: [],
      },
      signal,
      retries,
    );
    await recordResponseUsage(session, llm, response);
    const summary = response.content?.trim();
    if (!summary) throw new LLMBadResponseError('The condenser LLM answered without a summary.');
    const events: NewEvent[] = [];
    if (llm.log_completions) events.push(completionLogEvent(response, llm.usage_id, llm.model));
    events.push({
      kind: 'Condensation',
      source: 'environment',
      forgotten_event_ids: plan.forgotten.flatMap((event) => event.id ?? []),
      summary,
      summary_offset: plan.summaryOffset,
      llm_response_id: response.id,
    });
    await session.append(events);
  }

  /** Runs `task` after every condensation already queued for this agent. */
  private exclusive<T>(task: () => Promise<T>): Promise<T> {
    const run = this.queue.then(task, task);
    this.queue = run.catch(() => undefined);
    return run;
  }
}

/** How many of the last events fit in `budget` estimated tokens. */
function tailWithin(events: readonly Event[], budget: number): number {
  let used = 0;
  let count = 0;
  for (let i = events.length - 1; i >= 0; i--) {
    used += estimateTokens([events[i] as Event]);
    if (used > budget) break;
    count++;
  }
  return count;
}
