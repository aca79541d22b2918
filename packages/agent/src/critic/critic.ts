import type { CriticResult, NewEvent } from '@bosun/protocol';
import { completionLogEvent } from '../llm/completion-log.ts';
import type { LLMProvider, LLMResponse } from '../llm/types.ts';
import type { AgentSession } from '../session/session.ts';
import { recordResponseUsage } from '../session/usage.ts';
import { parseCriticAnswer } from './answer.ts';
import type { CriticSettings } from './config.ts';
import { type ActionDraft, type CriticSubject, type MessageDraft, criticPrompt } from './prompt.ts';

/** Why a critique gave no `critic_result`: the critic's LLM call failed, or its answer could not be read. */
export interface CriticFailure {
  reason: string;
  subject: CriticSubject['kind'];
  /** The judged tool calls (`actions`) or the answer's LLM response id (`message`). */
  toolCallIds?: string[];
  llmResponseId?: string;
  /** The critic's response, when it answered. */
  criticResponseId?: string;
  error?: unknown;
}

/**
 * The `LLMCritic` of one agent: before an agent's step is stored, asks its LLM to judge it (one request with the
 * task, the recent conversation and the step) and sets the step's `critic_result`. The tool calls of one LLM
 * response are judged together, once, and every ActionEvent of that response gets the same result. A critique
 * that fails (the LLM call fails, the answer is not the JSON asked for) leaves `critic_result` absent, is
 * reported to `onFailure`, and never fails the run.
 */
export class LLMCritic {
  constructor(
    readonly settings: CriticSettings,
    private readonly provider: LLMProvider,
    private readonly onFailure: (failure: CriticFailure) => void = () => undefined,
  ) {}

  /** What this critic judges among `events` (undefined: nothing). */
  subject(events: readonly NewEvent[]): CriticSubject | undefined {
    const { evaluate } = this.settings;
    if (evaluate !== 'messages') {
      const actions = events.filter((event): event is ActionDraft => event.kind === 'ActionEvent');
      if (actions.length) return { kind: 'actions', actions };
    }
    if (evaluate !== 'actions') {
      const message = events.find(
        (event): event is MessageDraft =>
          event.kind === 'MessageEvent' &&
          event.source === 'agent' &&
          event.llm_message.content.some((block) => block.type === 'text' && block.text.trim() !== ''),
      );
      if (message) return { kind: 'message', message };
    }
    return undefined;
  }

  /**
   * `events` with the critic's result set on what it judges, preceded by the critic's completion log when its
   * LLM logs completions. Unchanged when there is nothing to judge or the critique failed. `retries` (a pause)
   * ends the retrying of a failing LLM call, as it does the agent's.
   */
  async critique(
    session: AgentSession,
    events: NewEvent[],
    signal?: AbortSignal,
    retries?: AbortSignal,
  ): Promise<NewEvent[]> {
    const subject = this.subject(events);
    if (!subject) return events;
    const { result, log } = await this.judge(session, subject, signal, retries);
    if (!result) return [...log, ...events];
    const judged = new Set<NewEvent>(subject.kind === 'actions' ? subject.actions : [subject.message]);
    return [
      ...log,
      ...events.map((event) => (judged.has(event) ? ({ ...event, critic_result: result } as NewEvent) : event)),
    ];
  }

  private async judge(
    session: AgentSession,
    subject: CriticSubject,
    signal?: AbortSignal,
    retries?: AbortSignal,
  ): Promise<{ result?: CriticResult; log: NewEvent[] }> {
    const { llm, instructions } = this.settings;
    const toolCallIds = subject.kind === 'actions' ? subject.actions.map((action) => action.tool_call_id) : undefined;
    const about: Pick<CriticFailure, 'subject' | 'toolCallIds' | 'llmResponseId'> =
      subject.kind === 'actions'
        ? { subject: subject.kind, toolCallIds }
        : { subject: subject.kind, llmResponseId: subject.message.llm_response_id ?? undefined };
    let response: LLMResponse;
    try {
      const prompt = criticPrompt(subject, await session.history(), instructions);
      response = await this.provider.complete(
        {
          messages: [
            { role: 'user', content: [{ type: 'text', text: prompt, cache_prompt: false }], thinking_blocks: [] },
          ],
          tools: [],
        },
        signal,
        retries,
      );
    } catch (error) {
      if (signal?.aborted) throw error;
      this.onFailure({ ...about, reason: `The critic's LLM call failed: ${(error as Error).message}`, error });
      return { log: [] };
    }
    await recordResponseUsage(session, llm, response);
    const log = llm.log_completions ? [completionLogEvent(response, llm.usage_id, llm.model)] : [];
    const answer = parseCriticAnswer(response.content);
    if (!answer.ok) {
      this.onFailure({ ...about, reason: answer.reason, criticResponseId: response.id });
      return { log };
    }
    const metadata: Record<string, unknown> = {
      model: llm.model,
      usage_id: llm.usage_id,
      response_id: response.id,
      latency_ms: Math.round(response.latencyMs),
      subject: subject.kind,
      ...(toolCallIds ? { tool_call_ids: toolCallIds } : {}),
      ...(answer.rawScore !== answer.score ? { raw_score: answer.rawScore } : {}),
    };
    return { result: { score: answer.score, message: answer.message, metadata }, log };
  }
}
