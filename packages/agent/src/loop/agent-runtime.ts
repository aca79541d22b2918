import type { AgentSpec, Event, HookConfig, NewEvent, Observation, TextContent } from '@bosun/protocol';
import { SummarizingCondenser } from '../condenser/condenser.ts';
import { NoCondenserError, condenserSettings } from '../condenser/config.ts';
import { completeWithCondensation } from '../condenser/step.ts';
import { criticSettings } from '../critic/config.ts';
import { type CriticFailure, LLMCritic } from '../critic/critic.ts';
import { AgentHooks, awaitsBlockedPrompt } from '../hooks/agent-hooks.ts';
import { normalizeHookConfig } from '../hooks/config.ts';
import { type HookLogRecord, HookRunner } from '../hooks/runner.ts';
import { completionLogEvent } from '../llm/completion-log.ts';
import { createProvider } from '../llm/provider.ts';
import type { LLMProvider, LLMResponse, LLMTool } from '../llm/types.ts';
import { assessRisks, holdForConfirmation, terminalCwd } from '../security/confirmation.ts';
import { secretMasker } from '../shared/secret-masker.ts';
import { createInvokeSkillTool } from '../skills/invoke-tool.ts';
import { SkillSet } from '../skills/skill-set.ts';
import type { Tool, ToolContext } from '../tools/tool.ts';
import type { AgentSession } from './session.ts';
import { detectStuck } from './stuck.ts';
import { SYSTEM_PROMPT, dynamicContext } from './system-prompt.ts';
import { llmToolParameters, parseToolCall } from './tool-arguments.ts';

export interface AgentRuntimeOptions {
  provider: LLMProvider;
  /** The tools, `finish` and `think` included. */
  tools: Tool[];
  workspace: string;
  stateDir: string;
  /**
   * Secret values by name: masked as `<secret-hidden>` in everything tools return. A function is read at every
   * batch of actions, so secrets added while the conversation lives are masked too.
   */
  secrets?: Record<string, string> | (() => Record<string, string>);
  /** The condenser's LLM (default: a provider for the condenser's LLM configuration). */
  condenserProvider?: LLMProvider;
  /** Hooks (`hook_config`): commands run at points of the run, see `hooks/`. */
  hooks?: HookConfig | null;
  /** Told about every hook run (the agent server logs it). */
  onHookRun?: (record: HookLogRecord) => void;
  /** The critic's LLM (default: a provider for the critic's LLM configuration). */
  criticProvider?: LLMProvider;
  /** Told why a critique gave no `critic_result` (the run goes on without it). */
  onCriticFailure?: (failure: CriticFailure) => void;
  /** The agent's skills (see `skills/`): in the system prompt, and `invoke_skill` when some are invocable. */
  skills?: SkillSet;
  /** Lines for the system prompt's dynamic context (for example MCP servers that failed to start). */
  contextNotes?: string[];
}

type StepOutcome = 'continue' | 'done';

const NUDGE =
  'Your last response did not include a function call or a message. Please use a tool to proceed with the task.';

/**
 * The agent of one conversation: its LLM, its tools (which keep state across runs, like the shell) and the run
 * loop. A run goes step by step (an LLM call, then its tool calls) until the agent finishes, answers in plain
 * text, is paused, gets stuck or reaches `max_iterations`.
 */
export class AgentRuntime {
  private readonly toolsByName: Map<string, Tool>;
  private readonly llmTools: LLMTool[] = [];
  private readonly condenser: SummarizingCondenser | undefined;
  /** The conversation's hooks (UserPromptSubmit is run by the host, before it stores a user message). */
  readonly hooks: AgentHooks;
  private readonly critic: LLMCritic | undefined;
  /** The skills of the agent (the host asks them which ones a user message triggers). */
  readonly skills: SkillSet;

  constructor(
    readonly spec: AgentSpec,
    private readonly options: AgentRuntimeOptions,
  ) {
    this.skills = options.skills ?? new SkillSet();
    this.toolsByName = new Map();
    this.addTools(
      this.skills.invocable().length ? [...options.tools, createInvokeSkillTool(this.skills)] : options.tools,
    );
    this.hooks = new AgentHooks(
      new HookRunner(normalizeHookConfig(options.hooks), {
        workspace: options.workspace,
        ...(options.onHookRun ? { log: options.onHookRun } : {}),
        mask: () => secretMasker(Object.values(this.secrets())),
      }),
    );
    const condenser = condenserSettings(spec);
    this.condenser = condenser
      ? new SummarizingCondenser(condenser, options.condenserProvider ?? createProvider(condenser.llm))
      : undefined;
    const critic = criticSettings(spec);
    this.critic = critic
      ? new LLMCritic(critic, options.criticProvider ?? createProvider(critic.llm), options.onCriticFailure)
      : undefined;
  }

  /** Condenses the history now (`POST .../condense`); false when nothing can be forgotten. */
  condense(session: AgentSession, signal?: AbortSignal): Promise<boolean> {
    if (!this.condenser) throw new NoCondenserError();
    return this.condenser.condenseOnRequest(session, signal);
  }

  private secrets(): Record<string, string> {
    const { secrets } = this.options;
    return (typeof secrets === 'function' ? secrets() : secrets) ?? {};
  }

  get tools(): Tool[] {
    return [...this.toolsByName.values()];
  }

  /** Gives the agent more tools from its next LLM call on (an MCP server that started late); names stay unique. */
  addTools(tools: readonly Tool[]): void {
    for (const tool of tools) {
      if (this.toolsByName.has(tool.name)) continue;
      this.toolsByName.set(tool.name, tool);
      this.llmTools.push({
        name: tool.name,
        description: tool.definition.description,
        parameters: llmToolParameters(tool),
      });
    }
  }

  async close(): Promise<void> {
    await Promise.all([...this.tools.map((tool) => tool.close?.()), this.hooks.settled()]);
  }

  /**
   * Runs until the conversation leaves `running` or the agent is done. The session's status says why. `signal`
   * cancels everything in flight; `retries` (a pause) only ends the retrying of a failing LLM call.
   */
  async run(
    session: AgentSession,
    signal: AbortSignal = new AbortController().signal,
    retries?: AbortSignal,
  ): Promise<void> {
    await this.ensureSystemPrompt(session);
    await this.hooks.runStarts(session, signal);
    try {
      await this.loop(session, signal, retries);
    } finally {
      this.hooks.runEnded(session);
    }
  }

  private async loop(session: AgentSession, signal: AbortSignal, retries?: AbortSignal): Promise<void> {
    for (let iteration = 0; ; iteration++) {
      if (session.status() !== 'running' || signal.aborted) return;
      if (iteration >= session.maxIterations) {
        await session.setStatus('error', [
          {
            kind: 'ConversationErrorEvent',
            source: 'environment',
            code: 'MaxIterationsReached',
            detail: `Agent reached maximum iterations limit (${session.maxIterations}).`,
          },
        ]);
        return;
      }
      if ((await this.step(session, signal, retries)) === 'done') return;
    }
  }

  /** Appends the `SystemPromptEvent` unless the conversation has one: it is the first event of a conversation. */
  async ensureSystemPrompt(session: AgentSession): Promise<void> {
    const history = await session.history();
    if (history.some((event) => event.kind === 'SystemPromptEvent')) return;
    const text = (value: string): TextContent => ({ type: 'text', text: value, cache_prompt: false });
    await session.append([
      {
        kind: 'SystemPromptEvent',
        source: 'agent',
        system_prompt: text(this.spec.system_prompt ?? SYSTEM_PROMPT),
        tools: this.tools.map((tool) => tool.definition),
        dynamic_context: text(
          dynamicContext({
            workspace: this.options.workspace,
            secretNames: Object.keys(this.secrets()),
            skills: this.skills.systemContext(),
            suffix: this.spec.agent_context?.system_message_suffix ?? null,
            ...(this.options.contextNotes ? { notes: this.options.contextNotes } : {}),
          }),
        ),
      },
    ]);
  }

  private async step(session: AgentSession, signal: AbortSignal, retries?: AbortSignal): Promise<StepOutcome> {
    const history = await session.history();
    const pending = pendingActions(history);
    if (pending.length) {
      if (await holdForConfirmation(session, pending, history)) return 'done';
      return this.execute(session, pending, signal);
    }
    const blocked = session.blockedMessages?.() ?? {};
    if (awaitsBlockedPrompt(history, blocked)) {
      await session.setStatus('finished');
      return 'done';
    }

    const response = await completeWithCondensation({
      session,
      history,
      condenser: this.condenser,
      complete: (messages) => this.options.provider.complete({ messages, tools: this.llmTools }, signal, retries),
      signal,
      hiddenMessageIds: new Set(Object.keys(blocked)),
    });
    if (!response) return 'done';
    await this.recordUsage(session, response);
    const telemetry = this.telemetryEvents(response);

    if (response.toolCalls.length === 0) {
      const message = agentMessage(response);
      if (response.content?.trim()) {
        await session.append([...telemetry, ...(await this.critique(session, [message], signal))]);
        return this.finish(session, signal);
      }
      await session.append([
        ...telemetry,
        message,
        {
          kind: 'MessageEvent',
          source: 'environment',
          llm_message: {
            role: 'user',
            content: [{ type: 'text', text: NUDGE, cache_prompt: false }],
            thinking_blocks: [],
          },
          activated_skills: [],
          extended_content: [],
        },
      ]);
      return 'continue';
    }

    const { actions, errors } = this.actionEvents(response);
    const assessed = assessRisks(actions, session.securityAnalyzer?.(), {
      workspace: this.options.workspace,
      terminalCwd: terminalCwd(history),
      readOnly: (name) => this.toolsByName.get(name)?.readOnly ?? false,
      rule: (name) => this.toolsByName.get(name)?.riskSubject,
    });
    const judged = await this.critique(session, assessed, signal);
    const stored = await session.append([...telemetry, ...judged, ...errors]);
    const executable = stored.filter(
      (event): event is Extract<Event, { kind: 'ActionEvent' }> => event.kind === 'ActionEvent' && event.action != null,
    );
    if (await holdForConfirmation(session, executable)) return 'done';
    return this.execute(session, executable, signal);
  }

  /** Runs the actions in call order, then appends their results in the same order. */
  private async execute(
    session: AgentSession,
    actions: Extract<Event, { kind: 'ActionEvent' }>[],
    signal: AbortSignal,
  ): Promise<StepOutcome> {
    const context: ToolContext = {
      workspace: this.options.workspace,
      stateDir: this.options.stateDir,
      signal,
      mask: secretMasker(Object.values(this.secrets())),
    };
    const results: NewEvent[] = [];
    let finished = false;
    for (const event of actions) {
      const tool = this.toolsByName.get(event.tool_name);
      const action = event.action as NonNullable<typeof event.action>;
      if (!tool) {
        results.push(agentError(event, `Tool '${event.tool_name}' is not available.`));
        continue;
      }
      const blockedBy = await this.hooks.blocksAction(session, event, signal);
      if (blockedBy !== null) {
        results.push(hookRejection(event, blockedBy));
        await session.blockAction?.(event.id as string, blockedBy);
        continue;
      }
      try {
        const result = (await tool.execute(action, context)) as Observation;
        const observation = await this.hooks.afterAction(session, event, result, signal);
        results.push({
          kind: 'ObservationEvent',
          source: 'environment',
          tool_name: event.tool_name,
          tool_call_id: event.tool_call_id,
          observation,
          action_id: event.id as string,
        });
        if (action.kind === 'FinishAction') finished = true;
      } catch (error) {
        results.push(agentError(event, `Error executing tool '${event.tool_name}': ${(error as Error).message}`));
      }
    }
    const history = [...(await session.history()), ...(await session.append(results))];
    if (finished) return this.finish(session, signal);
    const stuck = session.stuckDetection === false ? undefined : detectStuck(history);
    if (stuck) {
      await session.setStatus('stuck', [
        { kind: 'ConversationErrorEvent', source: 'environment', code: 'StuckDetected', detail: stuck },
      ]);
      return 'done';
    }
    return 'continue';
  }

  /** The agent would finish: a Stop hook may send it back to work (with its feedback), else the run ends. */
  private async finish(session: AgentSession, signal: AbortSignal): Promise<StepOutcome> {
    const { feedback, keepGoing } = await this.hooks.beforeFinish(session, signal);
    if (feedback) await session.append([feedback]);
    if (keepGoing) return 'continue';
    await session.setStatus('finished');
    return 'done';
  }

  /** One ActionEvent per tool call (calls after `finish` are dropped); invalid calls also get an error. */
  private actionEvents(response: LLMResponse): { actions: NewEvent[]; errors: NewEvent[] } {
    const finishAt = response.toolCalls.findIndex((call) => call.name === 'finish');
    const calls = finishAt >= 0 ? response.toolCalls.slice(0, finishAt + 1) : response.toolCalls;
    const actions: NewEvent[] = [];
    const errors: NewEvent[] = [];
    calls.forEach((call, index) => {
      const tool = this.toolsByName.get(call.name);
      const parsed = tool
        ? parseToolCall(tool, call.arguments)
        : ({
            ok: false,
            error: `Tool '${call.name}' not found. Available: ${JSON.stringify([...this.toolsByName.keys()])}`,
          } as const);
      const first = index === 0;
      actions.push({
        kind: 'ActionEvent',
        source: 'agent',
        thought: first && response.content ? [{ type: 'text', text: response.content, cache_prompt: false }] : [],
        ...(first && response.reasoningContent ? { reasoning_content: response.reasoningContent } : {}),
        thinking_blocks: first ? (response.thinkingBlocks ?? []) : [],
        ...(first && response.responsesReasoningItem
          ? { responses_reasoning_item: response.responsesReasoningItem }
          : {}),
        action: parsed.ok ? parsed.action : null,
        tool_name: call.name,
        tool_call_id: call.id,
        tool_call: { id: call.id, name: call.name, arguments: call.arguments, origin: response.origin },
        llm_response_id: response.id,
        security_risk: 'UNKNOWN',
        summary: parsed.ok ? parsed.summary : null,
      });
      if (!parsed.ok) {
        errors.push({
          kind: 'AgentErrorEvent',
          source: 'agent',
          tool_name: call.name,
          tool_call_id: call.id,
          error: parsed.error,
        });
      }
    });
    return { actions, errors };
  }

  /** The critic's judgement set on `events` (before they are stored: events never change once stored). */
  private critique(session: AgentSession, events: NewEvent[], signal: AbortSignal): Promise<NewEvent[]> {
    return this.critic ? this.critic.critique(session, events, signal) : Promise.resolve(events);
  }

  private telemetryEvents(response: LLMResponse): NewEvent[] {
    const { llm } = this.spec;
    const events: NewEvent[] = [];
    if (llm.log_completions) events.push(completionLogEvent(response, llm.usage_id, llm.model));
    if (response.tokenIds) {
      events.push({
        kind: 'TokenEvent',
        source: 'environment',
        prompt_token_ids: response.tokenIds.prompt,
        response_token_ids: response.tokenIds.response,
      });
    }
    return events;
  }

  private async recordUsage(session: AgentSession, response: LLMResponse): Promise<void> {
    const { llm } = this.spec;
    const cost =
      (llm.input_cost_per_token ?? 0) * response.usage.prompt_tokens +
      (llm.output_cost_per_token ?? 0) * response.usage.completion_tokens;
    await session.recordUsage(llm.usage_id, llm.model, response.usage, cost, response.latencyMs, response.id);
  }
}

/** Actions that were stored but never got a result (accepted after confirmation, for example). */
export function pendingActions(history: readonly Event[]): Extract<Event, { kind: 'ActionEvent' }>[] {
  const answered = new Set<string>();
  for (const event of history) {
    if (event.kind === 'ObservationEvent' || event.kind === 'UserRejectObservation') answered.add(event.action_id);
    if (event.kind === 'AgentErrorEvent') answered.add(event.tool_call_id);
  }
  return history.filter(
    (event): event is Extract<Event, { kind: 'ActionEvent' }> =>
      event.kind === 'ActionEvent' &&
      event.action != null &&
      !answered.has(event.id as string) &&
      !answered.has(event.tool_call_id),
  );
}

function agentMessage(response: LLMResponse): NewEvent {
  return {
    kind: 'MessageEvent',
    source: 'agent',
    llm_message: {
      role: 'assistant',
      content: [{ type: 'text', text: response.content ?? '', cache_prompt: false }],
      thinking_blocks: response.thinkingBlocks ?? [],
      ...(response.reasoningContent ? { reasoning_content: response.reasoningContent } : {}),
      ...(response.responsesReasoningItem ? { responses_reasoning_item: response.responsesReasoningItem } : {}),
    },
    llm_response_id: response.id,
    activated_skills: [],
    extended_content: [],
  };
}

/** The result of an action a PreToolUse hook blocked. */
function hookRejection(event: Extract<Event, { kind: 'ActionEvent' }>, reason: string): NewEvent {
  return {
    kind: 'UserRejectObservation',
    source: 'environment',
    tool_name: event.tool_name,
    tool_call_id: event.tool_call_id,
    action_id: event.id as string,
    rejection_reason: reason,
    rejection_source: 'hook',
  };
}

function agentError(event: Extract<Event, { kind: 'ActionEvent' }>, error: string): NewEvent {
  return {
    kind: 'AgentErrorEvent',
    source: 'agent',
    tool_name: event.tool_name,
    tool_call_id: event.tool_call_id,
    error,
  };
}
