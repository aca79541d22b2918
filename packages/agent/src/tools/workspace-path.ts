import { lstatSync, readlinkSync, realpathSync } from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';

export class ToolInputError extends Error {}

/** Symbolic links followed while resolving one path before giving up (as Linux's ELOOP limit). */
const MAX_LINK_HOPS = 40;

/**
 * Resolves `path` (absolute, or relative to the workspace) and refuses anything outside the workspace, so a
 * tool never touches files it was not given. Both the path as written (`..` included) and the path its symbolic
 * links lead to must stay inside the workspace; links are followed even when their target does not exist yet
 * (a write through a dangling link would create a file outside). Returns the absolute path as written, normalized.
 */
export function resolveInWorkspace(workspace: string, path: string): string {
  const root = resolve(workspace);
  const absolute = isAbsolute(path) ? resolve(path) : resolve(root, path);
  if (!isInside(root, absolute)) {
    throw new ToolInputError(
      `The path ${path} is outside the workspace ${workspace}; only paths inside it can be used.`,
    );
  }
  const real = realPathLenient(absolute);
  if (!isInside(realPathLenient(root), real)) {
    throw new ToolInputError(
      `The path ${path} leads through a symbolic link to ${real}, which is outside the workspace ${workspace}; only paths inside it can be used.`,
    );
  }
  return absolute;
}

/** True when `path` is `root` or below it (both absolute and normalized). */
export function isInside(root: string, path: string): boolean {
  const inside = relative(root, path);
  return inside === '' || (inside !== '..' && !inside.startsWith(`..${sep}`) && !isAbsolute(inside));
}

/**
 * The real path of `absolute`: like `realpath`, but a missing tail is kept as written and a dangling symbolic
 * link is followed to where it points.
 */
function realPathLenient(absolute: string): string {
  try {
    return realpathSync.native(absolute);
  } catch {
    // Some component is missing, dangling or unreadable: walk the components one by one.
  }
  let hops = 0;
  const walk = (target: string): string => {
    let current = resolve('/');
    const parts = target.split(sep).filter(Boolean);
    for (let index = 0; index < parts.length; index++) {
      const candidate = join(current, parts[index]!);
      let isLink: boolean;
      try {
        isLink = lstatSync(candidate).isSymbolicLink();
      } catch {
        return join(candidate, ...parts.slice(index + 1));
      }
      if (!isLink) {
        current = candidate;
        continue;
      }
      if (++hops > MAX_LINK_HOPS) {
        throw new ToolInputError(`Too many levels of symbolic links while resolving ${absolute}.`);
      }
      current = walk(resolve(current, readlinkSync(candidate)));
    }
    return current;
  };
  return walk(absolute);
}
