import { isAbsolute, relative, resolve } from 'node:path';

export class ToolInputError extends Error {}

/**
 * Resolves `path` (absolute, or relative to the workspace) and refuses anything outside the workspace, so a
 * tool never touches files it was not given.
 */
export function resolveInWorkspace(workspace: string, path: string): string {
  const absolute = isAbsolute(path) ? resolve(path) : resolve(workspace, path);
  const inside = relative(workspace, absolute);
  if (inside.startsWith('..') || isAbsolute(inside)) {
    throw new ToolInputError(
      `The path ${path} is outside the workspace ${workspace}; only paths inside it can be used.`,
    );
  }
  return absolute;
}
