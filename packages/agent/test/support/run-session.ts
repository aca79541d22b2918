import type { Agent, AgentSession } from '@bosun/agent';
import {
  type AgentSpec,
  type ConfirmationPolicy,
  type ConversationExecutionStatus,
  type NewEvent,
  type StoredEvent,
  parseEvent,
} from '@bosun/protocol';

/**
 * A conversation in memory for tests of the run loop: events parsed and stored in order, status changes with
 * their state events, a confirmation policy, and the hook bookkeeping (blocked messages and actions).
 */
export class RunSession implements AgentSession {
  readonly id = 'memory';
  readonly stuckDetection: boolean;
  readonly maxIterations: number;
  events: StoredEvent[] = [];
  current: ConversationExecutionStatus = 'idle';
  policy: ConfirmationPolicy;
  /** User messages a UserPromptSubmit hook blocked, by id. */
  blocked: Record<string, string> = {};
  /** Actions a PreToolUse hook blocked, by id. */
  blockedActions: Record<string, string> = {};
  /** Told about every batch of events as it is stored. */
  onAppend: (events: StoredEvent[]) => void = () => undefined;

  constructor(
    readonly agent: AgentSpec,
    options: { maxIterations?: number; policy?: ConfirmationPolicy; stuckDetection?: boolean } = {},
  ) {
    this.maxIterations = options.maxIterations ?? 20;
    this.stuckDetection = options.stuckDetection ?? false;
    this.policy = options.policy ?? { kind: 'NeverConfirm' };
  }

  async history() {
    return this.events;
  }
  async append(events: NewEvent[]) {
    const stored = events.map(
      (event, i) =>
        parseEvent({ id: `e${this.events.length + i}`, timestamp: new Date().toISOString(), ...event }) as StoredEvent,
    );
    this.events.push(...stored);
    this.onAppend(stored);
    return stored;
  }
  status() {
    return this.current;
  }
  async setStatus(status: ConversationExecutionStatus, extra: NewEvent[] = []) {
    await this.append([
      ...extra,
      { kind: 'ConversationStateUpdateEvent', source: 'environment', key: 'execution_status', value: status },
    ]);
    this.current = status;
  }
  confirmationPolicy() {
    return this.policy;
  }
  securityAnalyzer() {
    return null;
  }
  async recordUsage() {}
  blockedMessages() {
    return this.blocked;
  }
  async blockAction(actionId: string, reason: string) {
    this.blockedActions[actionId] = reason;
  }
  /** Appends a user message and returns it as stored. */
  async userMessage(text: string) {
    const [stored] = await this.append([
      {
        kind: 'MessageEvent',
        source: 'user',
        llm_message: { role: 'user', content: [{ type: 'text', text, cache_prompt: false }], thinking_blocks: [] },
        activated_skills: [],
        extended_content: [],
      },
    ]);
    return stored as StoredEvent<'MessageEvent'>;
  }
  /** What the agent server's `startRun` does: the `running` status, then the run. */
  async run(loopAgent: Agent) {
    await this.setStatus('running');
    await loopAgent.run(this);
  }
}
