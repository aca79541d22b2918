import type { Static } from '@sinclair/typebox';
import { taggedUnion } from '../schema/builders.ts';
import { browserActions } from './browser.ts';
import { FinishAction, MCPToolAction, TaskTrackerAction, ThinkAction } from './builtins.ts';
import {
  EditAction,
  FileEditorAction,
  ListDirectoryAction,
  PlanningFileEditorAction,
  ReadFileAction,
  WriteFileAction,
} from './files.ts';
import { GlobAction, GrepAction } from './search.ts';
import { TerminalAction } from './terminal.ts';

export * from './browser.ts';
export * from './builtins.ts';
export * from './files.ts';
export * from './search.ts';
export * from './terminal.ts';

export const actionShapes = [
  MCPToolAction,
  FinishAction,
  ThinkAction,
  ...browserActions,
  FileEditorAction,
  EditAction,
  ListDirectoryAction,
  ReadFileAction,
  WriteFileAction,
  GlobAction,
  GrepAction,
  PlanningFileEditorAction,
  TaskTrackerAction,
  TerminalAction,
] as const;

export const Action = taggedUnion('Action', 'kind', [...actionShapes], {
  description: 'What a tool call does, selected by `kind`.',
});
export type Action = Static<typeof Action>;
export type ActionKind = Action['kind'];

/** The action of the given kind. */
export type ActionOf<K extends ActionKind> = Extract<Action, { kind: K }>;
