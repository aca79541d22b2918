import { realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, normalize, relative, sep } from 'node:path';
import { HttpError, InputError } from '@bosun/http';

/**
 * Where the routes that reach the machine (bash, files, git) may go: inside the workspace, never into the
 * server's data directory (its event logs and secrets key), even when the workspace holds it.
 */
export interface WorkspaceBounds {
  workspace: string;
  dataDir: string;
}

/**
 * `path` (absolute) with its symbolic links resolved, if it is inside the workspace and outside the data
 * directory: 422 when it is not absolute, 403 when it leads elsewhere (`..`, a link, `/proc`). A path that does
 * not exist yet is resolved through its nearest existing ancestor.
 */
export function insideWorkspace(bounds: WorkspaceBounds, path: string, loc: (string | number)[]): string {
  if (!isAbsolute(path) || path.includes('\0')) {
    throw new InputError([{ loc, msg: 'Path must be absolute', type: 'value_error' }]);
  }
  const resolved = realPath(normalize(path));
  if (!within(realPath(bounds.workspace), resolved) || within(realPath(bounds.dataDir), resolved)) {
    throw new HttpError(403, `Path is outside the workspace: ${path}`);
  }
  return resolved;
}

function within(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

/** The real path of `path`, or of its nearest existing ancestor joined with the rest. */
function realPath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    const parent = dirname(path);
    return parent === path ? path : join(realPath(parent), basename(path));
  }
}
