import { isAbsolute, join, sep } from 'node:path';
import { ToolInputError, resolveInWorkspace } from '../workspace-path.ts';
import { pathKind } from './text-file.ts';

/**
 * The directory (or, when `allowFile`, file) a search runs in: `path` (absolute or relative to the workspace)
 * or the workspace itself; it must be inside the workspace.
 */
export async function resolveSearchTarget(
  workspace: string,
  path: string | null | undefined,
  allowFile = false,
): Promise<{ absolute: string; isFile: boolean }> {
  const absolute = resolveInWorkspace(workspace, path?.trim() ? path.trim() : workspace);
  const kind = await pathKind(absolute);
  if (kind === 'directory') return { absolute, isFile: false };
  if (kind === 'file' && allowFile) return { absolute, isFile: true };
  throw new ToolInputError(`Search path '${absolute}' is not a valid directory.`);
}

/**
 * Splits an absolute glob such as `/repo/src/**\/*.ts` into the directory before its first wildcard and the
 * rest, anchored there (`/repo/src` and `/**\/*.ts`); a pattern without wildcards names one file.
 */
export function splitAbsolutePattern(pattern: string): { base: string; pattern: string } {
  const parts = pattern.split('/');
  const firstMagic = parts.findIndex((part) => /[*?[{]/.test(part));
  const baseParts = firstMagic === -1 ? parts.slice(0, -1) : parts.slice(0, firstMagic);
  const rest = firstMagic === -1 ? parts.slice(-1) : parts.slice(firstMagic);
  const base = baseParts.join('/') || sep;
  return { base: isAbsolute(base) ? base : join(sep, base), pattern: `/${rest.join('/')}` };
}
