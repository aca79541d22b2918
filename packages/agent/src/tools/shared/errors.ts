import { GlobSyntaxError } from '@bosun/sources';
import { ToolInputError } from '../workspace-path.ts';

/**
 * The message for a problem the caller caused or the environment reports (a `ToolInputError`, a pattern's
 * `GlobSyntaxError`, or a failed file-system call such as a missing file or a denied permission), or `undefined`
 * for anything else: a bug, which the tool lets through.
 */
export function problemMessage(error: unknown): string | undefined {
  if (error instanceof ToolInputError || error instanceof GlobSyntaxError) return error.message;
  if (!(error instanceof Error)) return undefined;
  if (error.name === 'AbortError') return 'The operation was cancelled.';
  const { code, path } = error as NodeJS.ErrnoException;
  if (typeof code !== 'string') return undefined;
  const where = path ?? 'the path';
  switch (code) {
    case 'ENOENT':
      return `No such file or directory: ${where}.`;
    case 'EACCES':
    case 'EPERM':
      return `Permission denied: ${where}.`;
    case 'EISDIR':
      return `${where} is a directory, not a file.`;
    case 'ENOTDIR':
      return `A component of ${where} is not a directory.`;
    case 'EROFS':
      return `${where} is on a read-only file system.`;
    case 'ENOSPC':
      return `No space left on the device while writing ${where}.`;
    case 'ELOOP':
      return `Too many levels of symbolic links in ${where}.`;
    default:
      return `${error.message}`;
  }
}

/**
 * Runs `run`; a problem of the call (see `problemMessage`) becomes the observation `fail` builds from its
 * message, so tools never throw for bad input.
 */
export async function guard<O>(run: () => Promise<O>, fail: (message: string) => O): Promise<O> {
  try {
    return await run();
  } catch (error) {
    const message = problemMessage(error);
    if (message === undefined) throw error;
    return fail(message);
  }
}
