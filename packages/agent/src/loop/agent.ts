import type { AgentSpec, HookConfig, TextContent } from '@bosun/protocol';
import { SkillSet } from '@bosun/sources';
import { SummarizingCondenser } from '../condenser/condenser.ts';
import { NoCondenserError, condenserSettings } from '../condenser/config.ts';
import { criticSettings } from '../critic/config.ts';
import { type CriticFailure, LLMCritic } from '../critic/critic.ts';
import { AgentHooks } from '../hooks/agent-hooks.ts';
import { normalizeHookConfig } from '../hooks/config.ts';
import { type HookLogRecord, HookRunner } from '../hooks/runner.ts';
import { createProvider } from '../llm/provider.ts';
import type { LLMProvider, LLMTool } from '../llm/types.ts';
import { conversationError } from '../session/events.ts';
import type { AgentSession } from '../session/session.ts';
import { secretMasker } from '../shared/secret-masker.ts';
import { createInvokeSkillTool } from '../skills/invoke-tool.ts';
import type { Tool } from '../tools/tool.ts';
import type { AgentParts } from './parts.ts';
import { runStep } from './step.ts';
import { SYSTEM_PROMPT, dynamicContext } from './system-prompt.ts';
import { llmToolParameters } from './tool-arguments.ts';

export interface AgentOptions {
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

/**
 * The agent of one conversation: its LLM, its tools (which keep state across runs, like the shell), hooks,
 * condenser and critic, wired once, and the run loop. A run goes step by step (`runStep`: an LLM call, then its
 * tool calls) until the agent finishes, answers in plain text, is paused, gets stuck or reaches `max_iterations`.
 */
export class Agent implements AgentParts {
  private readonly toolMap = new Map<string, Tool>();
  readonly llmTools: LLMTool[] = [];
  readonly provider: LLMProvider;
  readonly condenser: SummarizingCondenser | undefined;
  readonly critic: LLMCritic | undefined;
  /** The conversation's hooks (UserPromptSubmit is run by the host, before it stores a user message). */
  readonly hooks: AgentHooks;
  /** The skills of the agent (the host asks them which ones a user message triggers). */
  readonly skills: SkillSet;
  readonly workspace: string;
  readonly stateDir: string;

  constructor(
    readonly spec: AgentSpec,
    private readonly options: AgentOptions,
  ) {
    this.provider = options.provider;
    this.workspace = options.workspace;
    this.stateDir = options.stateDir;
    this.skills = options.skills ?? new SkillSet();
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

  secrets(): Record<string, string> {
    const { secrets } = this.options;
    return (typeof secrets === 'function' ? secrets() : secrets) ?? {};
  }

  get tools(): Tool[] {
    return [...this.toolMap.values()];
  }

  get toolsByName(): ReadonlyMap<string, Tool> {
    return this.toolMap;
  }

  /** Gives the agent more tools from its next LLM call on (an MCP server that started late); names stay unique. */
  addTools(tools: readonly Tool[]): void {
    for (const tool of tools) {
      if (this.toolMap.has(tool.name)) continue;
      this.toolMap.set(tool.name, tool);
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
        const detail = `Agent reached maximum iterations limit (${session.maxIterations}).`;
        await session.setStatus('error', [conversationError('MaxIterationsReached', detail)]);
        return;
      }
      if ((await runStep(this, session, signal, retries)) === 'done') return;
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
            workspace: this.workspace,
            secretNames: Object.keys(this.secrets()),
            skills: this.skills.systemContext(),
            suffix: this.spec.agent_context?.system_message_suffix ?? null,
            ...(this.options.contextNotes ? { notes: this.options.contextNotes } : {}),
          }),
        ),
      },
    ]);
  }
}
