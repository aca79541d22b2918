import type { Dirent } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { numberLines, splitLines } from '../shared/lines.ts';
import { MAX_FILE_BYTES, readBytes, readTextFile } from '../shared/text-file.ts';
import { DIRECTORY_TRUNCATED_NOTICE, FILE_TRUNCATED_NOTICE, MAX_OUTPUT_CHARS, truncateText } from '../shared/text.ts';
import { SKIPPED_DIRECTORIES } from '../shared/walk.ts';
import { invalidParameter } from './messages.ts';

/** What a view shows: text, and for an image file the image as a `data:` URL. */
export interface ViewResult {
  text: string;
  imageUrl?: string;
}

const IMAGE_TYPES: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.bmp': 'image/bmp',
};

export function isImagePath(path: string): boolean {
  return extname(path).toLowerCase() in IMAGE_TYPES;
}

/** `cat -n` of the file, or of `viewRange` (`[start, end]`, 1-based, inclusive; `end` -1 = to the end). */
export async function viewFile(path: string, viewRange: readonly number[] | null | undefined): Promise<ViewResult> {
  const lines = splitLines(await readTextFile(path));
  const total = lines.length;
  let first = 1;
  let last = total;
  let note = '';
  if (viewRange) {
    if (viewRange.length !== 2 || !viewRange.every(Number.isInteger)) {
      throw invalidParameter('view_range', viewRange, 'It should be a list of two integers.');
    }
    [first, last] = viewRange as [number, number];
    if (total === 0) {
      throw invalidParameter('view_range', viewRange, `The file ${path} is empty, so no line range can be shown.`);
    }
    if (first < 1 || first > total) {
      throw invalidParameter(
        'view_range',
        viewRange,
        `Its first element \`${first}\` should be within the range of lines of the file: [1, ${total}].`,
      );
    }
    if (last === -1) {
      last = total;
    } else if (last < first) {
      throw invalidParameter(
        'view_range',
        viewRange,
        `Its second element \`${last}\` should be greater than or equal to the first element \`${first}\` (or -1 to view to the end of the file).`,
      );
    } else if (last > total) {
      note = `NOTE: We only show up to ${total} since there're only ${total} lines in this file.\n`;
      last = total;
    }
  }
  if (total === 0) return { text: `The file ${path} is empty.` };
  const body = numberLines(lines.slice(first - 1, last), first);
  return {
    text: truncateText(
      `${note}Here's the result of running \`cat -n\` on ${path}:\n${body}\n`,
      MAX_OUTPUT_CHARS,
      FILE_TRUNCATED_NOTICE,
    ).text,
  };
}

/** An image file, for models that can see it. */
export async function viewImage(path: string): Promise<ViewResult> {
  const bytes = await readBytes(path, MAX_FILE_BYTES);
  const type = IMAGE_TYPES[extname(path).toLowerCase()] ?? 'image/png';
  return {
    text: `Image file ${path} read successfully. Displaying image content.`,
    imageUrl: `data:${type};base64,${Buffer.from(bytes).toString('base64')}`,
  };
}

/**
 * The files and directories up to 2 levels deep in `path`, without hidden ones (as `find -maxdepth 2`,
 * directories marked with a trailing `/`); `node_modules` is listed but not entered.
 */
export async function viewDirectory(
  path: string,
  viewRange: readonly number[] | null | undefined,
): Promise<ViewResult> {
  if (viewRange) {
    throw invalidParameter(
      'view_range',
      viewRange,
      'The `view_range` parameter is not allowed when `path` points to a directory.',
    );
  }
  const root = path.replace(/\/+$/, '') || '/';
  const top = await readdir(root, { withFileTypes: true });
  const hidden = top.filter((entry) => entry.name.startsWith('.')).length;
  const lines = [`${root === '/' ? '' : root}/`];
  for (const entry of sortByName(top)) {
    if (entry.name.startsWith('.')) continue;
    const child = join(root, entry.name);
    if (!entry.isDirectory()) {
      lines.push(child);
      continue;
    }
    lines.push(`${child}/`);
    if (SKIPPED_DIRECTORIES.has(entry.name)) continue;
    let children: Dirent[] = [];
    try {
      children = await readdir(child, { withFileTypes: true });
    } catch {
      // unreadable: listed, not entered
    }
    for (const grandchild of sortByName(children)) {
      if (grandchild.name.startsWith('.')) continue;
      lines.push(`${join(child, grandchild.name)}${grandchild.isDirectory() ? '/' : ''}`);
    }
  }
  let text = `Here's the files and directories up to 2 levels deep in ${path}, excluding hidden items:\n${lines.join('\n')}`;
  if (hidden > 0) {
    text +=
      `\n\n${hidden} hidden files/directories in this directory are excluded. ` +
      `You can use 'ls -la ${path}' to see them.`;
  }
  return { text: truncateText(text, MAX_OUTPUT_CHARS, DIRECTORY_TRUNCATED_NOTICE).text };
}

function sortByName<T extends { name: string }>(entries: T[]): T[] {
  return [...entries].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
