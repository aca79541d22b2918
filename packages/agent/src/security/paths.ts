import { tmpdir } from 'node:os';
import { isAbsolute, posix, resolve } from 'node:path';
import { isInside } from '../tools/workspace-path.ts';
import type { SecurityRisk } from './risk.ts';

/** Where relative paths, `~` and `$HOME` lead while a command is rated. */
export interface PathContext {
  /** Absolute path of the workspace. */
  workspace: string;
  /** The user's home directory. */
  home: string;
  /** The directory relative paths start from (the workspace unless a `cd` moved it); empty when unknown. */
  cwd: string;
}

/**
 * What a path names, from the workspace's point of view:
 * `inside` the workspace, the `workspace` itself, an `ancestor` of it, the `home` directory, the `root`,
 * a file in a temporary directory (`temp`), a harmless device (`null`: /dev/null, stdout...), another
 * `device`, anything else `outside`, or `unresolved` (it depends on a variable or a substitution).
 */
export type PathClass =
  | 'inside'
  | 'workspace'
  | 'ancestor'
  | 'home'
  | 'root'
  | 'temp'
  | 'null'
  | 'device'
  | 'outside'
  | 'unresolved';

const HARMLESS_DEVICES = /^\/dev\/(null|zero|stdout|stderr|stdin|tty|fd\/\d+|urandom|random)$|^\/proc\/self\/fd\/\d+$/;
const GLOB = /[*?[]/;
const WHOLE_DIRECTORY = new Set(['*', '.*', '{*,.*}', '{.*,*}']);

function temporaryDirectories(): string[] {
  return [...new Set([tmpdir(), '/tmp', '/var/tmp'])];
}

/** Expands `~` and `$HOME`; undefined when the path still depends on the shell (a variable, `~user`, ...). */
function expand(raw: string, context: PathContext): string | undefined {
  let path = raw;
  if (path === '~' || path.startsWith('~/')) path = context.home + path.slice(1);
  path = path.replace(/^(\$HOME|\$\{HOME\})(?=\/|$)/, context.home);
  path = path.replace(/^(\$PWD|\$\{PWD\})(?=\/|$)/, context.cwd);
  if (/[$`]/.test(path) || path.startsWith('~') || path.startsWith('<(') || path.startsWith('>(')) return undefined;
  return path;
}

function classifyAbsolute(path: string, context: PathContext): PathClass {
  if (path.startsWith('/dev/') || path.startsWith('/proc/self/fd/')) {
    return HARMLESS_DEVICES.test(path) ? 'null' : 'device';
  }
  if (path === '/') return 'root';
  const workspace = resolve(context.workspace);
  if (path === workspace) return 'workspace';
  if (isInside(workspace, path)) return 'inside';
  if (isInside(path, workspace)) return 'ancestor';
  if (path === resolve(context.home)) return 'home';
  if (temporaryDirectories().some((temp) => path !== temp && isInside(temp, path))) return 'temp';
  return 'outside';
}

/** Classifies a path as a command names it (relative to the context's cwd; globs and `~` understood). */
export function classifyPath(raw: string, context: PathContext): PathClass {
  const expanded = expand(raw, context);
  if (expanded === undefined || expanded === '') return 'unresolved';
  if (!isAbsolute(expanded) && !context.cwd) return 'unresolved';
  const absolute = isAbsolute(expanded) ? posix.normalize(expanded) : resolve(context.cwd, expanded);
  const clean = absolute.length > 1 ? absolute.replace(/\/+$/, '') : absolute;
  const parts = clean.split('/');
  const globAt = parts.findIndex((part) => GLOB.test(part) || part.includes('{'));
  if (globAt < 0) return classifyAbsolute(clean, context);
  // `dir/*` names everything in `dir`: as much as `dir` itself. A narrower pattern names entries below it.
  const base = parts.slice(0, globAt).join('/') || '/';
  if (globAt === parts.length - 1 && WHOLE_DIRECTORY.has(parts[globAt] as string)) {
    return classifyAbsolute(base, context);
  }
  const below = classifyAbsolute(base, context);
  if (below === 'workspace') return 'inside';
  if (below === 'root' || below === 'home' || below === 'ancestor') return 'outside';
  return below;
}

/** The risk of deleting (or moving away, or destroying) what `path` names. */
export function deleteRisk(path: string, context: PathContext, options: { recursive: boolean }): SecurityRisk {
  switch (classifyPath(path, context)) {
    case 'inside':
    case 'temp':
      return 'MEDIUM';
    case 'null':
      return 'HIGH';
    case 'unresolved':
      // `rm -rf "$DIR/"` with DIR unset is `rm -rf /`.
      return options.recursive && /^\$\{?\w+\}?\/\*?$/.test(path) ? 'HIGH' : 'MEDIUM';
    default:
      return 'HIGH';
  }
}

/** The risk of writing to (creating, changing, chmod-ing) what `path` names. */
export function writeRisk(path: string, context: PathContext): SecurityRisk {
  switch (classifyPath(path, context)) {
    case 'inside':
    case 'workspace':
    case 'null':
      return 'LOW';
    case 'temp':
      return 'MEDIUM';
    case 'unresolved':
      return 'UNKNOWN';
    default:
      return 'HIGH';
  }
}

/** The directory a `cd` argument leads to, or undefined when it cannot be known. */
export function changeDirectory(target: string | undefined, context: PathContext): string | undefined {
  if (target === undefined || target === '~') return context.home;
  if (target === '-') return undefined;
  const expanded = expand(target, context);
  if (expanded === undefined || (!isAbsolute(expanded) && !context.cwd)) return undefined;
  return isAbsolute(expanded) ? posix.normalize(expanded) : resolve(context.cwd, expanded);
}
