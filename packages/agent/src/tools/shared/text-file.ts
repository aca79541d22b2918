import { mkdir, open, stat, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { ToolInputError } from '../workspace-path.ts';

/** The largest file the file tools read or edit (as OpenHands' file editor). */
export const MAX_FILE_BYTES = 10 * 1024 * 1024;

/** How far into a file a NUL byte marks it as binary (as git and ripgrep look at the start of a file). */
const BINARY_SNIFF_BYTES = 8 * 1024;

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** True when `bytes` has a NUL byte in its first `limit` bytes. */
export function hasNulByte(bytes: Uint8Array, limit = bytes.length): boolean {
  const end = Math.min(limit, bytes.length);
  for (let index = 0; index < end; index++) if (bytes[index] === 0) return true;
  return false;
}

/** True when `bytes` is not text the file tools can show and edit: a NUL byte near the start, or not UTF-8. */
export function isBinary(bytes: Uint8Array): boolean {
  if (hasNulByte(bytes, BINARY_SNIFF_BYTES)) return true;
  try {
    utf8.decode(bytes);
    return false;
  } catch {
    return true;
  }
}

export type PathKind = 'file' | 'directory' | 'other' | 'missing';

/** What is at `path` (symbolic links followed). */
export async function pathKind(path: string): Promise<PathKind> {
  try {
    const info = await stat(path);
    return info.isFile() ? 'file' : info.isDirectory() ? 'directory' : 'other';
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return 'missing';
    throw error;
  }
}

/**
 * The content of the text file at `path`. Refuses, with a `ToolInputError` the LLM can act on, what is not a
 * regular file, files over `maxBytes`, and binary or non-UTF-8 files.
 */
export async function readTextFile(path: string, maxBytes = MAX_FILE_BYTES): Promise<string> {
  const kind = await pathKind(path);
  if (kind === 'missing') throw new ToolInputError(`The path ${path} does not exist. Please provide a valid path.`);
  if (kind === 'directory') throw new ToolInputError(`The path ${path} is a directory, not a file.`);
  if (kind === 'other') throw new ToolInputError(`The path ${path} is not a regular file.`);
  const bytes = await readBytes(path, maxBytes);
  if (isBinary(bytes)) {
    throw new ToolInputError(
      `The file ${path} appears to be binary (or is not UTF-8 text); this tool can only read and edit text files.`,
    );
  }
  return decodeText(bytes);
}

/** `bytes` as UTF-8 text; a byte order mark is kept (as U+FEFF), so that writing the text back keeps it too. */
export function decodeText(bytes: Uint8Array): string {
  return new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);
}

/** The bytes of the file at `path`, refusing files over `maxBytes` without reading them. */
export async function readBytes(path: string, maxBytes = MAX_FILE_BYTES): Promise<Uint8Array> {
  const handle = await open(path, 'r');
  try {
    const { size } = await handle.stat();
    if (size > maxBytes) {
      throw new ToolInputError(
        `The file ${path} is too large (${formatSize(size)}); the maximum is ${formatSize(maxBytes)}. Look at parts of it with the terminal instead (for example \`head\`, \`sed -n\` or \`grep -n\`).`,
      );
    }
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}

/** Writes `text` to `path` as UTF-8, creating missing parent directories. */
export async function writeTextFile(path: string, text: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, text, 'utf8');
}

export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
}
