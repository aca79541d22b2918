import { realpath } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';

/** A path that leaves the directory it must stay in. */
export class PathEscapeError extends Error {
  override name = 'PathEscapeError';
}

/**
 * `root/relativePath`, after checking that it stays inside `root`: no absolute path, no `..` out of it, and no
 * symbolic link leading out (checked on the real path when it exists). Empty, null or `.` is `root` itself.
 */
export async function pathInside(root: string, relativePath: string | null | undefined): Promise<string> {
  const wanted = (relativePath ?? '').trim();
  if (wanted === '' || wanted === '.') return root;
  if (isAbsolute(wanted) || /^[A-Za-z]:[\\/]/.test(wanted)) {
    throw new PathEscapeError(`'${wanted}' must be a path relative to the repository root`);
  }
  const target = resolve(root, wanted);
  if (!contains(root, target)) throw new PathEscapeError(`'${wanted}' leads outside the repository`);
  let realTarget: string;
  try {
    realTarget = await realpath(target);
  } catch {
    return target; // does not exist: the caller says so in its own words
  }
  if (!contains(await realpath(root), realTarget)) {
    throw new PathEscapeError(`'${wanted}' leads outside the repository (through a symbolic link)`);
  }
  return target;
}

function contains(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}
