import type { ActionOf, ObservationOf } from '@bosun/protocol';
import { CHANGES_FILES, builtInTool } from '../shared/definition.ts';
import type { Tool } from '../tool.ts';
import { FILE_EDITOR_DESCRIPTION } from './description.ts';
import { FileEditor } from './editor.ts';
import { runEditorCommand } from './observation.ts';

type FileEditorAction = ActionOf<'FileEditorAction'>;
type FileEditorObservation = ObservationOf<'FileEditorObservation'>;

/**
 * The `file_editor` tool: `view`, `create`, `str_replace`, `insert` and `undo_edit` on files inside the
 * workspace. Each instance keeps its own undo history, so create one per conversation.
 */
export function createFileEditorTool(): Tool<FileEditorAction, FileEditorObservation> {
  const editor = new FileEditor();
  return builtInTool('file_editor', 'FileEditor', {
    description: FILE_EDITOR_DESCRIPTION,
    hints: CHANGES_FILES,
    execute: ({ kind: _kind, ...args }, context) => runEditorCommand(editor, 'FileEditorObservation', args, context),
  });
}
