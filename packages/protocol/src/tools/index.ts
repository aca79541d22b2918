import type { Static } from '@sinclair/typebox';
import type { Named } from '../schema/builders.ts';
import { browserShapes } from './browser.ts';
import { editShapes } from './edit.ts';
import { fileEditorShapes } from './file-editor.ts';
import { finishShapes } from './finish.ts';
import { globShapes } from './glob.ts';
import { grepShapes } from './grep.ts';
import { listDirectoryShapes } from './list-directory.ts';
import { mcpShapes } from './mcp.ts';
import { planningFileEditorShapes } from './planning-file-editor.ts';
import { readFileShapes } from './read-file.ts';
import { ToolAnnotations, type ToolShapes, toolUnions } from './shapes.ts';
import { taskTrackerShapes } from './task-tracker.ts';
import { terminalShapes } from './terminal.ts';
import { thinkShapes } from './think.ts';
import { writeFileShapes } from './write-file.ts';

export * from './browser.ts';
export * from './edit.ts';
export * from './file-editor.ts';
export * from './finish.ts';
export * from './glob.ts';
export * from './grep.ts';
export * from './list-directory.ts';
export * from './mcp.ts';
export * from './planning-file-editor.ts';
export * from './read-file.ts';
export {
  type ToolActionKindOf,
  type ToolActionOf,
  ToolAnnotations,
  type ToolShapes,
  observation,
  singleTool,
  toolDefinition,
  toolShapes,
  toolUnions,
} from './shapes.ts';
export * from './task-tracker.ts';
export * from './terminal.ts';
export * from './think.ts';
export * from './write-file.ts';

/**
 * The tool modules of the wire model, in the order of the unions' variants. The spec names every kind of the
 * unions: a new tool kind is a module of its own in this folder and one line here.
 */
export const TOOL_SHAPES = [
  mcpShapes,
  finishShapes,
  thinkShapes,
  browserShapes,
  fileEditorShapes,
  editShapes,
  listDirectoryShapes,
  readFileShapes,
  writeFileShapes,
  globShapes,
  grepShapes,
  planningFileEditorShapes,
  taskTrackerShapes,
  terminalShapes,
] as const;

export const { Action, Observation, ToolDefinition } = toolUnions(TOOL_SHAPES);

export type Action = Static<typeof Action>;
export type ActionKind = Action['kind'];
/** The action of the given kind. */
export type ActionOf<K extends ActionKind> = Extract<Action, { kind: K }>;

export type Observation = Static<typeof Observation>;
export type ObservationKind = Observation['kind'];
/** The observation of the given kind. */
export type ObservationOf<K extends ObservationKind> = Extract<Observation, { kind: K }>;

export type ToolDefinition = Static<typeof ToolDefinition>;
export type ToolDefinitionKind = ToolDefinition['kind'];

/**
 * Every named shape of the tool modules for the documents: the actions, the observations, then the definitions,
 * each part with its union and the shapes it refers to, sorted by `$id` (the order the documents have always had).
 */
export function toolNamedShapes(): Named[] {
  const tools = TOOL_SHAPES as readonly ToolShapes[];
  const parts: Named[][] = [
    [Action, ...tools.flatMap((tool) => tool.actions)],
    [Observation, ...tools.flatMap((tool) => tool.observations)],
    [ToolDefinition, ToolAnnotations, ...tools.flatMap((tool) => tool.definitions)],
  ];
  for (const shape of tools.flatMap((tool) => tool.shapes ?? [])) {
    const refersTo = (schema: Named) => JSON.stringify(schema).includes(`"$ref":"${shape.$id}"`);
    (parts.find((part) => part.some(refersTo)) ?? (parts[2] as Named[])).push(shape);
  }
  return parts.flatMap((part) => part.sort((a, b) => (a.$id < b.$id ? -1 : a.$id > b.$id ? 1 : 0)));
}
