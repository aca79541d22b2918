import type { Event, EventOf, MessageContent, NewEvent, Observation, TextContent } from '@bosun/protocol';
import type { AgentSession } from '../session/session.ts';
import type { HookRunner } from './runner.ts';

type ActionEvent = EventOf<'ActionEvent'>;

/** How the feedback of a Stop hook that sent the agent back to work starts. */
export const STOP_FEEDBACK_PREFIX = '[Stop hook feedback]';
/** How many times Stop hooks may send the agent back to work since the last user message. */
export const MAX_STOP_ROUNDS = 5;

const text = (value: string): TextContent => ({ type: 'text', text: value, cache_prompt: false });

/** What UserPromptSubmit hooks made of a user message. */
export interface PromptReview {
  /** Why the message is blocked (stored, never sent to the LLM), or null. */
  blocked: string | null;
  /** Context the hooks added: the message's `extended_content`. */
  extendedContent: TextContent[];
}

/**
 * The hooks at the points of the run loop: what each event means for the agent. The loop calls these; with no
 * hooks configured each returns at once.
 */
export class AgentHooks {
  private readonly endings = new Set<Promise<unknown>>();

  constructor(readonly runner: HookRunner) {}

  /** UserPromptSubmit, before the message is stored. */
  async reviewPrompt(sessionId: string, content: readonly MessageContent[]): Promise<PromptReview> {
    if (!this.runner.has('UserPromptSubmit')) return { blocked: null, extendedContent: [] };
    const prompt = content
      .filter((block): block is TextContent => block.type === 'text')
      .map((block) => block.text)
      .join('\n');
    const decision = await this.runner.run('UserPromptSubmit', sessionId, { prompt });
    if (decision.blocked) return { blocked: decision.reason, extendedContent: [] };
    return { blocked: null, extendedContent: decision.additionalContext.map(text) };
  }

  /** SessionStart, as a run begins: `startup` on the conversation's first run, `resume` on later ones. */
  async runStarts(session: AgentSession, signal?: AbortSignal): Promise<void> {
    if (!this.runner.has('SessionStart')) return;
    const history = await session.history();
    const runs = history.filter(
      (event) =>
        event.kind === 'ConversationStateUpdateEvent' && event.key === 'execution_status' && event.value === 'running',
    ).length;
    await this.runner.run('SessionStart', session.id, { source: runs <= 1 ? 'startup' : 'resume' }, { signal });
  }

  /**
   * SessionEnd, as a run ends, with the status it ended in as `reason`. Not awaited by the run (nothing waits
   * for it, and the conversation is free for the next run at once); `settled` waits for it.
   */
  runEnded(session: AgentSession): void {
    if (!this.runner.has('SessionEnd')) return;
    const ending = this.runner.run('SessionEnd', session.id, { reason: session.status() }).catch(() => undefined);
    this.endings.add(ending);
    void ending.finally(() => this.endings.delete(ending));
  }

  /** Waits for the SessionEnd hooks still running. */
  async settled(): Promise<void> {
    await Promise.all([...this.endings]);
  }

  /** PreToolUse, right before an action runs: why it must not run, or null. */
  async blocksAction(session: AgentSession, action: ActionEvent, signal?: AbortSignal): Promise<string | null> {
    if (!this.runner.has('PreToolUse', action.tool_name, toolInput(action))) return null;
    const decision = await this.runner.run('PreToolUse', session.id, toolDetails(action), { signal });
    return decision.blocked ? decision.reason : null;
  }

  /**
   * PostToolUse, after an action ran and before its observation is stored. What the hooks say reaches the LLM
   * with the result: a block reason (Claude Code: "shown to the model") and `additionalContext` are appended to
   * the observation's content as `[PostToolUse hook feedback] ...` and `[PostToolUse hook context] ...`.
   */
  async afterAction(
    session: AgentSession,
    action: ActionEvent,
    observation: Observation,
    signal?: AbortSignal,
  ): Promise<Observation> {
    if (!this.runner.has('PostToolUse', action.tool_name, toolInput(action))) return observation;
    const decision = await this.runner.run(
      'PostToolUse',
      session.id,
      { ...toolDetails(action), toolResponse: observation as unknown as Record<string, unknown> },
      { signal },
    );
    const notes = [
      ...(decision.blocked && decision.reason ? [`[PostToolUse hook feedback] ${decision.reason}`] : []),
      ...decision.additionalContext.map((context) => `[PostToolUse hook context] ${context}`),
    ];
    if (notes.length === 0) return observation;
    return { ...observation, content: [...observation.content, ...notes.map(text)] } as Observation;
  }

  /**
   * Stop, when the agent would finish. `feedback`: the environment message that sends it back to work (a Stop
   * hook blocked). `keepGoing`: the run goes on (it was sent back, or a user message arrived while the hooks ran:
   * that message is answered instead of being left behind by a run that ends). `stop_hook_active` is true when a
   * Stop hook already sent the agent back since the last user message; after `MAX_STOP_ROUNDS` such rounds the
   * hooks still run but cannot keep it working (logged with a note).
   */
  async beforeFinish(
    session: AgentSession,
    signal?: AbortSignal,
  ): Promise<{ feedback: NewEvent | null; keepGoing: boolean }> {
    if (!this.runner.has('Stop')) return { feedback: null, keepGoing: false };
    const history = await session.history();
    const seen = history.length;
    const rounds = stopRounds(history);
    const decision = await this.runner.run(
      'Stop',
      session.id,
      { stopHookActive: rounds > 0, lastAssistantMessage: lastAssistantMessage(history) },
      {
        signal,
        ...(rounds >= MAX_STOP_ROUNDS
          ? { ignoreBlocks: `Stop hooks already sent the agent back ${rounds} times; it stops now` }
          : {}),
      },
    );
    if (!decision.blocked) {
      const arrived = (await session.history())
        .slice(seen)
        .some((event) => event.kind === 'MessageEvent' && event.source === 'user');
      return { feedback: null, keepGoing: arrived };
    }
    const feedback = [decision.reason, ...decision.additionalContext].filter(Boolean).join('\n');
    return {
      feedback: {
        kind: 'MessageEvent',
        source: 'environment',
        llm_message: { role: 'user', content: [text(`${STOP_FEEDBACK_PREFIX} ${feedback}`)], thinking_blocks: [] },
        activated_skills: [],
        extended_content: [],
      },
      keepGoing: true,
    };
  }
}

/** What a tool hook is told about `action`. */
function toolDetails(action: ActionEvent) {
  return { toolName: action.tool_name, toolInput: toolInput(action), toolUseId: action.tool_call_id };
}

/** The action of an ActionEvent as hooks get it (`tool_input`). */
function toolInput(action: ActionEvent): Record<string, unknown> {
  return (action.action ?? {}) as Record<string, unknown>;
}

/** How many times Stop hooks sent the agent back to work since the last user message. */
export function stopRounds(history: readonly Event[]): number {
  let rounds = 0;
  for (let i = history.length - 1; i >= 0; i--) {
    const event = history[i] as Event;
    if (event.kind !== 'MessageEvent') continue;
    if (event.source === 'user') break;
    const first = event.llm_message.content[0];
    if (event.source === 'environment' && first?.type === 'text' && first.text.startsWith(STOP_FEEDBACK_PREFIX)) {
      rounds++;
    }
  }
  return rounds;
}

/** The agent's last word: its last `finish` message or text answer. */
export function lastAssistantMessage(history: readonly Event[]): string | null {
  for (let i = history.length - 1; i >= 0; i--) {
    const event = history[i] as Event;
    if (event.kind === 'ActionEvent' && event.action?.kind === 'FinishAction') return event.action.message;
    if (event.kind === 'MessageEvent' && event.source === 'agent') {
      return event.llm_message.content
        .filter((block): block is TextContent => block.type === 'text')
        .map((block) => block.text)
        .join('\n');
    }
  }
  return null;
}

/**
 * Whether the last user message was blocked by a UserPromptSubmit hook and the agent has not acted since: the
 * run then ends `finished` without calling the LLM (OpenHands' semantics).
 */
export function awaitsBlockedPrompt(history: readonly Event[], blocked: Readonly<Record<string, string>>): boolean {
  for (let i = history.length - 1; i >= 0; i--) {
    const event = history[i] as Event;
    if (event.kind === 'ActionEvent' || (event.kind === 'MessageEvent' && event.source === 'agent')) return false;
    if (event.kind === 'MessageEvent' && event.source === 'user') return event.id !== undefined && event.id in blocked;
  }
  return false;
}
