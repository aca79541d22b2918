import type { ToolActionOf, ToolShapes } from '@bosun/protocol';
import { LOW_RISK, type RiskSubject } from './risk-subject.ts';
import type { ShellEnv, Tool } from './tool.ts';

export interface ToolsetOptions {
  /**
   * Environment the terminal exports on top of a clean one (the conversation's secrets). A function is read
   * before every command, so variables added (or looked up anew) later reach a shell that is already running.
   */
  env?: ShellEnv;
}

/**
 * Everything Bosun knows of one tool (or one family of tools, like the browser's), in its own folder: its wire
 * shapes, its risk rule and its factory. The registry (`registry.ts`) and the security analyzer are built from
 * the list of records (`list.ts`).
 */
export interface ToolRecord<S extends ToolShapes = ToolShapes> {
  /** The name agents list in `agent.tools` (OpenHands' registry names), or the function name of an `always` tool. */
  readonly name: string;
  /** Every agent has it, whatever `agent.tools` lists (`finish`, `think`); it is not listed by name. */
  readonly always?: boolean;
  /** Its shapes in the wire model (`@bosun/protocol`): the actions its tools execute, what they return, their listing. */
  readonly shapes: S;
  /**
   * The `params` it reads, each a number of seconds greater than 0. Other keys are ignored: clients written for
   * OpenHands send parameters Bosun has no use for.
   */
  readonly secondsParams?: readonly string[];
  /** What the rule-based analyzer rates in each of its actions. */
  riskSubject(action: ToolActionOf<S>): RiskSubject;
  /** Its tools for one agent (one per conversation), from the `params` of `agent.tools`. */
  create(params: Record<string, unknown>, options: ToolsetOptions): Tool[];
}

/** A record with its shapes' types kept, so that `riskSubject` sees the actions of its own kinds. */
export function toolRecord<S extends ToolShapes>(record: ToolRecord<S>): ToolRecord<S> {
  return record;
}

/** The record of a tool every agent has (`finish`, `think`): one tool, no parameters, no risk. */
export function alwaysToolRecord<S extends ToolShapes>(name: string, shapes: S, create: () => Tool): ToolRecord<S> {
  return { name, always: true, shapes, riskSubject: () => LOW_RISK, create: () => [create()] };
}
