import { Type } from '@sinclair/typebox';
import { nullable, withDefault } from '../schema/builders.ts';
import { action, observation, singleTool, toolDefinition } from './shapes.ts';

export const ReadFileAction = action('ReadFileAction', 'Read a file, optionally a range of lines.', {
  file_path: Type.String({ description: 'Path of the file to read.' }),
  offset: Type.Optional(nullable(Type.Integer({ minimum: 0, description: 'First line to read (0-based).' }))),
  limit: Type.Optional(nullable(Type.Integer({ minimum: 1, description: 'Maximum number of lines to read.' }))),
});

const lineRange = Type.Unsafe<[number, number]>({
  type: 'array',
  prefixItems: [{ type: 'integer' }, { type: 'integer' }],
  items: false,
  minItems: 2,
  maxItems: 2,
  description: '`[first, last]` line shown.',
});

export const ReadFileObservation = observation('ReadFileObservation', 'The content of a file.', {
  file_path: Type.String(),
  file_content: withDefault(Type.String(), ''),
  is_truncated: withDefault(Type.Boolean(), false),
  lines_shown: Type.Optional(nullable(lineRange)),
  total_lines: Type.Optional(nullable(Type.Integer({ minimum: 0 }))),
});

export const ReadFileTool = toolDefinition('ReadFileTool', 'Reads a file.');

export const readFileShapes = singleTool(ReadFileAction, ReadFileObservation, ReadFileTool);
