import { type Static, type TProperties, Type } from '@sinclair/typebox';
import { MessageContent } from '../content.ts';
import {
  type Named,
  kindShape,
  nullable,
  openObject,
  ref,
  strictObject,
  taggedUnion,
  withDefault,
} from '../schema/builders.ts';

/**
 * What every tool module is made of: the wire shapes of one tool (or one family of tools, like the browser's),
 * from which the Action, Observation and ToolDefinition unions are built.
 */
export interface ToolShapes<A extends Named = Named, O extends Named = Named, D extends Named = Named> {
  /** The actions its tools execute, each selected by its `kind`. */
  readonly actions: readonly A[];
  /** What they return. */
  readonly observations: readonly O[];
  /** How they are listed in a `SystemPromptEvent`. */
  readonly definitions: readonly D[];
  /** Other named shapes its actions and observations refer to (`$ref`), so that the documents name them. */
  readonly shapes?: readonly Named[];
}

/** The actions a tool module defines. */
export type ToolActionOf<S extends ToolShapes> = Static<S['actions'][number]>;

/** The kinds of the actions a tool module defines. */
export type ToolActionKindOf<S extends ToolShapes> = S extends ToolShapes
  ? ToolActionOf<S> extends { kind: infer K }
    ? K
    : never
  : never;

/** A tool module's shapes, with their types kept for the unions built from them. */
export function toolShapes<A extends Named, O extends Named, D extends Named>(
  shapes: ToolShapes<A, O, D>,
): ToolShapes<A, O, D> {
  return shapes;
}

/** The shapes of a module of one tool: its action, its observation, its definition and the shapes they refer to. */
export function singleTool<A extends Named, O extends Named, D extends Named>(
  action: A,
  observation: O,
  definition: D,
  shapes?: readonly Named[],
): ToolShapes<A, O, D> {
  return { actions: [action], observations: [observation], definitions: [definition], ...(shapes && { shapes }) };
}

/** The three unions of the wire model, from the tool modules: variants in the order of `tools`. */
export function toolUnions<const T extends readonly ToolShapes[]>(tools: T) {
  const actions = tools.flatMap((tool) => tool.actions) as T[number]['actions'][number][];
  const observations = tools.flatMap((tool) => tool.observations) as T[number]['observations'][number][];
  const definitions = tools.flatMap((tool) => tool.definitions) as T[number]['definitions'][number][];
  return {
    Action: taggedUnion('Action', 'What a tool call does, selected by `kind`.', 'kind', actions),
    Observation: taggedUnion('Observation', 'What a tool call returned, selected by `kind`.', 'kind', observations),
    ToolDefinition: taggedUnion(
      'ToolDefinition',
      'A tool available to the agent, selected by `kind`.',
      'kind',
      definitions,
    ),
  };
}

/** An action of a tool: its `kind`, what it does, and its fields (none for an action without parameters). */
export function action<K extends string, P extends TProperties = Record<never, never>>(
  kind: K,
  description: string,
  fields: P = {} as P,
) {
  return kindShape(kind, description, fields);
}

/**
 * An observation: `content` (what the LLM reads) and `is_error`, plus the tool's own structured fields.
 */
export function observation<K extends string, P extends TProperties>(kind: K, description: string, fields: P) {
  return kindShape(kind, description, {
    content: withDefault(Type.Array(ref(MessageContent), { description: 'What the LLM reads.' }), []),
    is_error: withDefault(Type.Boolean(), false),
    ...fields,
  });
}

export const ToolAnnotations = strictObject(
  'ToolAnnotations',
  'Hints about how a tool behaves (MCP tool annotations).',
  {
    title: Type.Optional(nullable(Type.String())),
    readOnlyHint: withDefault(Type.Boolean({ description: 'The tool does not change its environment.' }), false),
    destructiveHint: withDefault(Type.Boolean({ description: 'The tool may destroy data.' }), true),
    idempotentHint: withDefault(Type.Boolean({ description: 'Repeating a call has no further effect.' }), false),
    openWorldHint: withDefault(Type.Boolean({ description: 'The tool talks to the outside world.' }), true),
  },
);

/**
 * A tool as its `SystemPromptEvent` lists it. `kind` is the tool's class; the LLM-facing function name is
 * `title` (for example `terminal`, `browser_navigate`).
 */
export function toolDefinition<K extends string, P extends TProperties = Record<never, never>>(
  kind: K,
  description: string,
  extra: P = {} as P,
) {
  return kindShape(kind, description, {
    title: Type.String({ description: 'The function name the LLM calls.' }),
    description: Type.String({ description: 'What the tool does, as the LLM reads it.' }),
    action_type: Type.String({ description: "The `kind` of the tool's actions." }),
    observation_type: Type.Optional(nullable(Type.String({ description: "The `kind` of the tool's observations." }))),
    annotations: Type.Optional(nullable(ref(ToolAnnotations))),
    meta: Type.Optional(nullable(openObject())),
    ...extra,
  });
}
