import { Type } from '@sinclair/typebox';
import { nullable, ref, strictObject, withDefault } from '../schema/builders.ts';
import { action, observation, singleTool, toolDefinition } from './shapes.ts';

export const ListDirectoryAction = action('ListDirectoryAction', 'List a directory.', {
  dir_path: withDefault(Type.String({ description: 'Directory to list.' }), '.'),
  recursive: withDefault(Type.Boolean({ description: 'List subdirectories too.' }), false),
});

export const FileEntry = strictObject('FileEntry', 'One entry of a directory listing.', {
  name: Type.String(),
  path: Type.String(),
  is_directory: Type.Boolean(),
  size: Type.Integer({ minimum: 0 }),
  modified_time: Type.String({ description: 'ISO-8601 timestamp.' }),
});

export const ListDirectoryObservation = observation('ListDirectoryObservation', 'A directory listing.', {
  dir_path: Type.Optional(nullable(Type.String())),
  entries: withDefault(Type.Array(ref(FileEntry)), []),
  total_count: withDefault(Type.Integer({ minimum: 0 }), 0),
  is_truncated: withDefault(Type.Boolean(), false),
});

export const ListDirectoryTool = toolDefinition('ListDirectoryTool', 'Lists a directory.');

export const listDirectoryShapes = singleTool(ListDirectoryAction, ListDirectoryObservation, ListDirectoryTool, [
  FileEntry,
]);
