import { Type } from '@sinclair/typebox';
import { nullable, withDefault } from '../schema/builders.ts';
import { action, observation, singleTool, toolDefinition } from './shapes.ts';

export const GrepAction = action('GrepAction', 'Find files whose content matches a regular expression.', {
  pattern: Type.String({ description: 'Regular expression to search for.' }),
  path: Type.Optional(nullable(Type.String({ description: 'Directory to search; the workspace by default.' }))),
  include: Type.Optional(nullable(Type.String({ description: 'Only search files matching this glob.' }))),
});

export const GrepObservation = observation('GrepObservation', 'Files whose content matches a pattern.', {
  matches: Type.Array(Type.String(), { description: 'Paths of the files that match.' }),
  pattern: Type.String(),
  search_path: Type.String(),
  include_pattern: Type.Optional(nullable(Type.String())),
  truncated: withDefault(Type.Boolean(), false),
});

export const GrepTool = toolDefinition('GrepTool', 'Finds files by content.');

export const grepShapes = singleTool(GrepAction, GrepObservation, GrepTool);
