import { Type } from '@sinclair/typebox';
import { kindShape, nullable, stringEnum, withDefault } from '../schema/builders.ts';

/** Actions that read and change files in the workspace. */

export const FILE_EDITOR_COMMANDS = ['view', 'create', 'str_replace', 'insert', 'undo_edit'] as const;

function fileEditorFields() {
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

export const FileEditorAction = kindShape('FileEditorAction', fileEditorFields(), {
  description: 'View, create and edit files.',
});

export const PlanningFileEditorAction = kindShape('PlanningFileEditorAction', fileEditorFields(), {
  description: 'View any file; edit only the plan file.',
});

export const EditAction = kindShape(
  'EditAction',
  {
    file_path: Type.String({ description: 'Path of the file to edit.' }),
    old_string: Type.String({ description: 'Exact text to replace; empty creates a new file.' }),
    new_string: Type.String({ description: 'Replacement text.' }),
    expected_replacements: withDefault(
      Type.Integer({ minimum: 0, description: 'How many occurrences must be replaced.' }),
      1,
    ),
  },
  { description: 'Replace text in a file.' },
);

export const ReadFileAction = kindShape(
  'ReadFileAction',
  {
    file_path: Type.String({ description: 'Path of the file to read.' }),
    offset: Type.Optional(nullable(Type.Integer({ minimum: 0, description: 'First line to read (0-based).' }))),
    limit: Type.Optional(nullable(Type.Integer({ minimum: 1, description: 'Maximum number of lines to read.' }))),
  },
  { description: 'Read a file, optionally a range of lines.' },
);

export const WriteFileAction = kindShape(
  'WriteFileAction',
  {
    file_path: Type.String({ description: 'Path of the file to write.' }),
    content: Type.String({ description: 'The whole new content.' }),
  },
  { description: 'Write a whole file.' },
);

export const ListDirectoryAction = kindShape(
  'ListDirectoryAction',
  {
    dir_path: withDefault(Type.String({ description: 'Directory to list.' }), '.'),
    recursive: withDefault(Type.Boolean({ description: 'List subdirectories too.' }), false),
  },
  { description: 'List a directory.' },
);

export type FileEditorCommand = (typeof FILE_EDITOR_COMMANDS)[number];
