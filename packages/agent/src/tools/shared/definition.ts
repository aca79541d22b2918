import type { Action, Observation, ToolDefinition, ToolDefinitionKind } from '@bosun/protocol';
import { llmParameters } from '../parameters.ts';
import type { Tool, ToolContext } from '../tool.ts';

export interface ToolHints {
  readOnly: boolean;
  destructive: boolean;
  idempotent: boolean;
  /** The tool reaches beyond the workspace (the network, other processes); false unless said. */
  openWorld?: boolean;
}

/** A tool that only reads (files, the conversation): it changes nothing, and repeating it changes nothing. */
export const READS_ONLY: ToolHints = { readOnly: true, destructive: false, idempotent: true };
/** A tool that changes files in place: what it overwrites is gone. */
export const CHANGES_FILES: ToolHints = { readOnly: false, destructive: true, idempotent: false };

export interface BuiltInToolSpec<A extends Action, O extends Observation> {
  /** The function name the LLM calls. */
  name: string;
  toolKind: Exclude<ToolDefinitionKind, 'MCPToolDefinition'>;
  actionKind: A['kind'];
  observationKind: O['kind'];
  /** What the LLM reads about the tool. */
  description: string;
  hints: ToolHints;
  execute(action: A, context: ToolContext): Promise<O>;
  close?(): Promise<void>;
}

/**
 * A built-in tool from its facts: its `SystemPromptEvent` listing (class `kind`, the function name as
 * `title`, the description, MCP-style annotations) and its LLM arguments come from the same spec, so the
 * `readOnly` the loop checks and the `readOnlyHint` the LLM sees cannot disagree.
 */
export function defineTool<A extends Action, O extends Observation>(spec: BuiltInToolSpec<A, O>): Tool<A, O> {
  const { name, hints } = spec;
  const definition = {
    kind: spec.toolKind,
    title: name,
    description: spec.description,
    action_type: spec.actionKind,
    observation_type: spec.observationKind,
    annotations: {
      title: name,
      readOnlyHint: hints.readOnly,
      destructiveHint: hints.destructive,
      idempotentHint: hints.idempotent,
      openWorldHint: hints.openWorld ?? false,
    },
  } as ToolDefinition;
  return {
    name,
    actionKind: spec.actionKind,
    definition,
    parameters: llmParameters(spec.actionKind),
    readOnly: hints.readOnly,
    execute: spec.execute,
    ...(spec.close ? { close: spec.close } : {}),
  };
}

/** A stem `S` whose tool, action and observation kinds are `${S}Tool`, `${S}Action` and `${S}Observation`. */
export type ToolStem = {
  [K in Action['kind']]: K extends `${infer S}Action`
    ? `${S}Observation` extends Observation['kind']
      ? `${S}Tool` extends ToolDefinitionKind
        ? S
        : never
      : never
    : never;
}[Action['kind']];

type StemAction<S extends ToolStem> = Extract<Action, { kind: `${S}Action` }>;
type StemObservation<S extends ToolStem> = Extract<Observation, { kind: `${S}Observation` }>;

/** A built-in tool whose kinds follow its stem (`Edit`: `EditTool`, `EditAction`, `EditObservation`). */
export function builtInTool<S extends ToolStem>(
  name: string,
  stem: S,
  spec: Pick<BuiltInToolSpec<StemAction<S>, StemObservation<S>>, 'description' | 'hints' | 'execute' | 'close'>,
): Tool<StemAction<S>, StemObservation<S>> {
  return defineTool<StemAction<S>, StemObservation<S>>({
    name,
    toolKind: `${stem}Tool` as BuiltInToolSpec<StemAction<S>, StemObservation<S>>['toolKind'],
    actionKind: `${stem}Action` as StemAction<S>['kind'],
    observationKind: `${stem}Observation` as StemObservation<S>['kind'],
    ...spec,
  });
}
