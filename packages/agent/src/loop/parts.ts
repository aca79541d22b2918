import type { AgentSpec } from '@bosun/protocol';
import type { SummarizingCondenser } from '../condenser/condenser.ts';
import type { LLMCritic } from '../critic/critic.ts';
import type { AgentHooks } from '../hooks/agent-hooks.ts';
import type { LLMProvider, LLMTool } from '../llm/types.ts';
import type { Tool } from '../tools/tool.ts';

/** What a step of the loop works with: the parts of one conversation's agent, wired by `Agent`. */
export interface AgentParts {
  readonly spec: AgentSpec;
  readonly provider: LLMProvider;
  readonly toolsByName: ReadonlyMap<string, Tool>;
  /** The tools as the LLM is told about them, in the order they were added. */
  readonly llmTools: LLMTool[];
  readonly hooks: AgentHooks;
  readonly condenser: SummarizingCondenser | undefined;
  readonly critic: LLMCritic | undefined;
  readonly workspace: string;
  readonly stateDir: string;
  /** Secret values by name, read at every batch of actions. */
  secrets(): Record<string, string>;
}

/** Whether the loop goes on after a step. */
export type StepOutcome = 'continue' | 'done';
