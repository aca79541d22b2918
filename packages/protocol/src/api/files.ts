import { type Static, Type } from '@sinclair/typebox';

/** Files of the agent server's workspace (OpenHands' `/api/file`): every path absolute and inside it. */

export const FilePathQuery = Type.Object(
  { path: Type.String({ minLength: 1, maxLength: 4096, description: 'An absolute path inside the workspace.' }) },
  { additionalProperties: false },
);
export type FilePathQuery = Static<typeof FilePathQuery>;
