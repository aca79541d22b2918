import { Type } from '@sinclair/typebox';
import { kindShape, nullable } from '../schema/builders.ts';

/** Read-only actions that find files and text. */

export const GlobAction = kindShape(
  'GlobAction',
  {
    pattern: Type.String({ description: 'Glob pattern, for example `**/*.ts`.' }),
    path: Type.Optional(nullable(Type.String({ description: 'Directory to search; the workspace by default.' }))),
  },
  { description: 'Find files by name pattern.' },
);

export const GrepAction = kindShape(
  'GrepAction',
  {
    pattern: Type.String({ description: 'Regular expression to search for.' }),
    path: Type.Optional(nullable(Type.String({ description: 'Directory to search; the workspace by default.' }))),
    include: Type.Optional(nullable(Type.String({ description: 'Only search files matching this glob.' }))),
  },
  { description: 'Find files whose content matches a regular expression.' },
);
