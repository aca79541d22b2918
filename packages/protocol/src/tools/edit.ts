import { Type } from '@sinclair/typebox';
import { nullable, withDefault } from '../schema/builders.ts';
import { action, observation, singleTool, toolDefinition } from './shapes.ts';

export const EditAction = action('EditAction', 'Replace text in a file.', {
  file_path: Type.String({ description: 'Path of the file to edit.' }),
  old_string: Type.String({ description: 'Exact text to replace; empty creates a new file.' }),
  new_string: Type.String({ description: 'Replacement text.' }),
  expected_replacements: withDefault(
    Type.Integer({ minimum: 0, description: 'How many occurrences must be replaced.' }),
    1,
  ),
});

export const EditObservation = observation('EditObservation', 'The result of an edit.', {
  file_path: Type.Optional(nullable(Type.String())),
  is_new_file: withDefault(Type.Boolean(), false),
  replacements_made: withDefault(Type.Integer({ minimum: 0 }), 0),
  old_content: Type.Optional(nullable(Type.String())),
  new_content: Type.Optional(nullable(Type.String())),
});

export const EditTool = toolDefinition('EditTool', 'Replaces text in a file.');

export const editShapes = singleTool(EditAction, EditObservation, EditTool);
