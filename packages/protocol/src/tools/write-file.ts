import { Type } from '@sinclair/typebox';
import { nullable, withDefault } from '../schema/builders.ts';
import { action, observation, singleTool, toolDefinition } from './shapes.ts';

export const WriteFileAction = action('WriteFileAction', 'Write a whole file.', {
  file_path: Type.String({ description: 'Path of the file to write.' }),
  content: Type.String({ description: 'The whole new content.' }),
});

export const WriteFileObservation = observation('WriteFileObservation', 'The result of writing a file.', {
  file_path: Type.Optional(nullable(Type.String())),
  is_new_file: withDefault(Type.Boolean(), false),
  old_content: Type.Optional(nullable(Type.String())),
  new_content: Type.Optional(nullable(Type.String())),
});

export const WriteFileTool = toolDefinition('WriteFileTool', 'Writes a file.');

export const writeFileShapes = singleTool(WriteFileAction, WriteFileObservation, WriteFileTool);
