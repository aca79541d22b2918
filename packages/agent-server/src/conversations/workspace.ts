import { mkdir, realpath, stat } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { ValidationError } from '@bosun/protocol';

const LOC = ['body', 'workspace', 'working_dir'];
/**
 * Kernel pseudo-filesystems: no place for a workspace, and Node's recursive mkdir spins forever (burning a core
 * and holding a libuv thread) under /proc.
 */
const PSEUDO_FILESYSTEMS = ['/proc', '/sys', '/dev'];
/** How long one filesystem step (stat, realpath, mkdir) of preparing a working directory may take. */
export const FS_STEP_DEADLINE_MS = 10_000;

const REASONS: Record<string, string> = {
  ENAMETOOLONG: 'a name in the path is too long',
  ENOTDIR: 'a part of the path is not a directory',
  EEXIST: 'it exists and is not a directory',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EROFS: 'read-only file system',
  ENOSPC: 'no space left on device',
  EDQUOT: 'disk quota exceeded',
  ELOOP: 'too many symbolic links',
  EIO: 'input/output error',
};

/** A filesystem step that did not finish by its deadline (the step itself cannot be cancelled; it is left). */
export class FsDeadlineError extends Error {
  readonly code = 'ETIMEDOUT';
  constructor(step: string, ms: number) {
    super(`the file system did not answer within ${ms} ms (${step})`);
    this.name = 'FsDeadlineError';
  }
}

/** `work`, or a `FsDeadlineError` once `ms` have passed without it settling. */
export function withDeadline<T>(step: string, work: Promise<T>, ms = FS_STEP_DEADLINE_MS): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new FsDeadlineError(step, ms)), ms);
    timer.unref();
  });
  work.catch(() => undefined); // a step that fails after its deadline is nobody's concern
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}

function isInside(path: string, root: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

function problem(msg: string): ValidationError[] {
  return [{ loc: LOC, msg, type: 'value_error' }];
}

/** Problems of where `path` points, judged from the path alone. */
function placeProblems(path: string, root: string | undefined, given: string): ValidationError[] {
  const pseudo = PSEUDO_FILESYSTEMS.find((top) => isInside(path, top));
  if (pseudo) return problem(`working_dir ${given} is under ${pseudo}, a kernel pseudo-filesystem`);
  if (root !== undefined && !isInside(path, root)) {
    return problem(`working_dir ${given} must be inside the workspace root ${root}`);
  }
  return [];
}

/**
 * Problems of a requested `working_dir` that show without touching the disk: it must be absolute, outside the
 * kernel's pseudo-filesystems and, when the server has a workspace root, inside it.
 */
export function workingDirProblems(dir: string, root?: string): ValidationError[] {
  if (dir.includes('\0')) return problem('working_dir must not contain a NUL character');
  if (!isAbsolute(dir)) return problem(`working_dir must be an absolute path, got ${JSON.stringify(dir)}`);
  return placeProblems(resolve(dir), root === undefined ? undefined : resolve(root), dir);
}

function failure(dir: string, error: unknown): ValidationError[] {
  const code = (error as NodeJS.ErrnoException).code ?? '';
  const reason = error instanceof FsDeadlineError ? error.message : (REASONS[code] ?? (error as Error).message);
  return problem(`Cannot create working_dir ${dir}: ${reason}${code ? ` (${code})` : ''}`);
}

/**
 * Makes sure the working directory exists, creating it and its missing parents one level at a time (each step
 * with a deadline: a step past it is a problem, never a hang). Symbolic links are followed before anything is
 * created, so a link into /proc or out of the workspace root is refused like the path it leads to.
 * Returns the problems (a 422 for the client); none when the directory is ready.
 */
export async function ensureWorkingDir(
  dir: string,
  { root, deadlineMs = FS_STEP_DEADLINE_MS }: { root?: string; deadlineMs?: number } = {},
): Promise<ValidationError[]> {
  const lexical = workingDirProblems(dir, root);
  if (lexical.length) return lexical;
  try {
    let existing = resolve(dir);
    const missing: string[] = [];
    for (;;) {
      try {
        const found = await withDeadline(`stat ${existing}`, stat(existing), deadlineMs);
        if (!found.isDirectory()) {
          return missing.length
            ? problem(`Cannot create working_dir ${dir}: ${existing} is not a directory (ENOTDIR)`)
            : problem(`Cannot use working_dir ${dir}: it exists and is not a directory (EEXIST)`);
        }
        break;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || dirname(existing) === existing) throw error;
        missing.unshift(basename(existing));
        existing = dirname(existing);
      }
    }
    const real = await withDeadline(`realpath ${existing}`, realpath(existing), deadlineMs);
    const realRoot = root === undefined ? undefined : await realRootOf(root, deadlineMs);
    const followed = placeProblems(join(real, ...missing), realRoot, dir);
    if (followed.length) return followed;
    let path = real;
    for (const name of missing) {
      path = join(path, name);
      try {
        await withDeadline(`mkdir ${path}`, mkdir(path), deadlineMs);
      } catch (error) {
        // Created meanwhile by someone else: fine if it is a directory.
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
        const found = await withDeadline(`stat ${path}`, stat(path), deadlineMs);
        if (!found.isDirectory()) throw error;
      }
    }
    return [];
  } catch (error) {
    return failure(dir, error);
  }
}

/** The workspace root with its symbolic links followed (as written when it does not exist yet). */
async function realRootOf(root: string, deadlineMs: number): Promise<string> {
  try {
    return await withDeadline(`realpath ${root}`, realpath(root), deadlineMs);
  } catch {
    return resolve(root);
  }
}
