import { type Static, Type } from '@sinclair/typebox';
import { namedEnum, nullable, ref, strictObject } from '../schema/builders.ts';

/** The Git state of a repository in the agent server's workspace (OpenHands' `/api/git`). */

export const GitChangeStatus = namedEnum('GitChangeStatus', 'How a file differs from the reference.', [
  'MOVED',
  'ADDED',
  'DELETED',
  'UPDATED',
]);

export const GitChange = strictObject('GitChange', 'A file that differs from the reference (or is untracked).', {
  status: ref(GitChangeStatus),
  path: Type.String({ description: 'The file, relative to the repository root.' }),
});
export type GitChange = Static<typeof GitChange>;

export const GitDiff = strictObject('GitDiff', 'A file before and after its changes.', {
  modified: nullable(Type.String({ description: 'The file as it is now (null when deleted).' })),
  original: nullable(Type.String({ description: 'The file at the reference (null when new).' })),
});
export type GitDiff = Static<typeof GitDiff>;

/** A branch, tag or commit: never an option (a leading `-`), no spaces. */
const REVISION = { minLength: 1, maxLength: 256, pattern: '^[^-\\s][^\\s]*$' };

export const GitChangesQuery = Type.Object(
  {
    path: Type.String({ minLength: 1, maxLength: 4096, description: 'A directory of the repository.' }),
    ref: Type.Optional(Type.String({ ...REVISION, description: 'Compare with (default HEAD).' })),
  },
  { additionalProperties: false },
);
export type GitChangesQuery = Static<typeof GitChangesQuery>;

export const GitDiffQuery = Type.Object(
  {
    path: Type.String({ minLength: 1, maxLength: 4096, description: 'A file of the repository.' }),
    ref: Type.Optional(Type.String({ ...REVISION, description: 'The original (default HEAD).' })),
    commit: Type.Optional(
      Type.String({ pattern: '^[0-9a-fA-F]{4,64}$', description: 'Diff this commit against its parent instead.' }),
    ),
  },
  { additionalProperties: false },
);
export type GitDiffQuery = Static<typeof GitDiffQuery>;
