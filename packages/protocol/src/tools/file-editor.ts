import { Type } from '@sinclair/typebox';
import { nullable, stringEnum, withDefault } from '../schema/builders.ts';
import { action, observation, singleTool, toolDefinition } from './shapes.ts';

export const FILE_EDITOR_COMMANDS = ['view', 'create', 'str_replace', 'insert', 'undo_edit'] as const;
export type FileEditorCommand = (typeof FILE_EDITOR_COMMANDS)[number];

/** The fields of a file editor's action (also the planning file editor's). */
export function fileEditorFields() {
  return {
    command: stringEnum(FILE_EDITOR_COMMANDS, { description: 'The edit to make.' }),
    path: Type.String({ description: 'Absolute path to a file or directory.' }),
    file_text: Type.Optional(nullable(Type.String({ description: 'Content of the file to create (`create`).' }))),
    old_str: Type.Optional(nullable(Type.String({ description: 'Text to replace (`str_replace`).' }))),
    new_str: Type.Optional(
      nullable(Type.String({ description: 'Replacement (`str_replace`, optional) or text to insert (`insert`).' })),
    ),
    insert_line: Type.Optional(
      nullable(Type.Integer({ minimum: 0, description: 'Insert after this line (`insert`); 0 inserts at the top.' })),
    ),
    view_range: Type.Optional(
      nullable(
        Type.Array(Type.Integer(), {
          description: '`[start, end]` lines to view (1-based, inclusive); `end` -1 means to the end of the file.',
        }),
      ),
    ),
  };
}

/** The fields of a file editor's observation (also the planning file editor's). */
export function fileEditorObservationFields() {
  return {
    command: stringEnum(FILE_EDITOR_COMMANDS),
    path: Type.Optional(nullable(Type.String())),
    prev_exist: withDefault(Type.Boolean({ description: 'Whether the file existed before.' }), true),
    old_content: Type.Optional(nullable(Type.String())),
    new_content: Type.Optional(nullable(Type.String())),
  };
}

/**
 * The shapes of a file editor tool named `name`: `<name>Action`, `<name>Observation` and `<name>Tool`. The file
 * editor and the planning file editor differ only in their names and descriptions.
 */
export function fileEditorTool<N extends string>(name: N, does: { action: string; observation: string; tool: string }) {
  const shapes = {
    action: action(`${name}Action` as const, does.action, fileEditorFields()),
    observation: observation(`${name}Observation` as const, does.observation, fileEditorObservationFields()),
    definition: toolDefinition(`${name}Tool` as const, does.tool),
  };
  return { ...shapes, shapes: singleTool(shapes.action, shapes.observation, shapes.definition) };
}

const fileEditor = fileEditorTool('FileEditor', {
  action: 'View, create and edit files.',
  observation: 'The result of a file editor command.',
  tool: 'Views, creates and edits files.',
});
export const { action: FileEditorAction, observation: FileEditorObservation, definition: FileEditorTool } = fileEditor;
export const fileEditorShapes = fileEditor.shapes;
