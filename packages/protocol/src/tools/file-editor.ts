import { Type } from '@sinclair/typebox';
import { kindShape, nullable, stringEnum, withDefault } from '../schema/builders.ts';
import { observation, singleTool, toolDefinition } from './shapes.ts';

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

export const FileEditorAction = kindShape('FileEditorAction', fileEditorFields(), {
  description: 'View, create and edit files.',
});

export const FileEditorObservation = observation(
  'FileEditorObservation',
  fileEditorObservationFields(),
  'The result of a file editor command.',
);

export const FileEditorTool = toolDefinition('FileEditorTool', 'Views, creates and edits files.');

export const fileEditorShapes = singleTool(FileEditorAction, FileEditorObservation, FileEditorTool);
