import { Type } from '@sinclair/typebox';
import { nullable, withDefault } from '../schema/builders.ts';
import { action, observation, singleTool, toolDefinition } from './shapes.ts';

export const GlobAction = action('GlobAction', 'Find files by name pattern.', {
  pattern: Type.String({ description: 'Glob pattern, for example `**/*.ts`.' }),
  path: Type.Optional(nullable(Type.String({ description: 'Directory to search; the workspace by default.' }))),
});

export const GlobObservation = observation('GlobObservation', 'Files matching a glob pattern.', {
  files: Type.Array(Type.String()),
  pattern: Type.String(),
  search_path: Type.String(),
  truncated: withDefault(Type.Boolean(), false),
});

export const GlobTool = toolDefinition('GlobTool', 'Finds files by name pattern.');

export const globShapes = singleTool(GlobAction, GlobObservation, GlobTool);
