import type { Action, Observation, ToolDefinition } from '@bosun/protocol';
import type { RiskSubject } from './risk-subject.ts';

/** What a tool may use while it executes one action. */
export interface ToolContext {
  /** Absolute path of the workspace; file tools refuse paths outside it. */
  workspace: string;
  /** Absolute path of a directory private to the conversation (full outputs, task list, ...). */
  stateDir: string;
  /** Aborted when the run is paused or the conversation closes. */
  signal: AbortSignal;
  /** Masks secret values in text the tool returns (`<secret-hidden>`). Identity when there are none. */
  mask(text: string): string;
}

/**
 * A tool the agent can call: an Action kind it executes and the Observation kind it returns. `execute` never
 * throws for a problem of the call itself (bad path, missing file, non-unique match): it returns an observation
 * with `is_error: true` and a message the LLM can act on. It throws only on bugs.
 */
export interface Tool<A extends Action = Action, O extends Observation = Observation> {
  /** The function name the LLM calls, e.g. `terminal`, `file_editor`. */
  readonly name: string;
  /** The Action kind this tool executes. */
  readonly actionKind: A['kind'];
  /** How the tool is listed in the `SystemPromptEvent`. */
  readonly definition: ToolDefinition;
  /** JSON Schema of the function's arguments as the LLM sees them (the Action without `kind`). */
  readonly parameters: Record<string, unknown>;
  /** True when the tool never changes anything (no `security_risk` argument, no confirmation needed). */
  readonly readOnly: boolean;
  /**
   * Builds the action from the LLM's arguments (without `summary` and `security_risk`) when it is not simply
   * the arguments plus `kind`: MCP tools put them in `data`, checked against the server's input schema. The
   * error says what is wrong, for the LLM.
   */
  actionFrom?(args: Record<string, unknown>): { ok: true; action: A } | { ok: false; error: string };
  /**
   * What the rule-based security analyzer rates in an action of this tool: its record's rule (the registry sets
   * it). Without one the analyzer goes by the action's kind.
   */
  riskSubject?(action: A): RiskSubject;
  execute(action: A, context: ToolContext): Promise<O>;
  /** Releases what the tool holds (a shell, a browser). */
  close?(): Promise<void>;
}

/** A shell's extra environment, or how to read it (again before each command: secrets may be looked up). */
export type ShellEnv = Record<string, string> | (() => Record<string, string> | Promise<Record<string, string>>);
