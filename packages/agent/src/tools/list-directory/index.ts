import type { Dirent } from 'node:fs';
import { lstat, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { ActionOf, ObservationOf } from '@bosun/protocol';
import { mapLimit } from '@bosun/sources';
import { textObservation } from '../observations.ts';
import { READS_ONLY, builtInTool } from '../shared/definition.ts';
import { guard } from '../shared/errors.ts';
import { formatSize, pathKind } from '../shared/text-file.ts';
import { SKIPPED_DIRECTORIES } from '../shared/walk.ts';
import type { Tool, ToolContext } from '../tool.ts';
import { ToolInputError, resolveInWorkspace } from '../workspace-path.ts';

type ListDirectoryAction = ActionOf<'ListDirectoryAction'>;
type ListDirectoryObservation = ObservationOf<'ListDirectoryObservation'>;
type FileEntry = ListDirectoryObservation['entries'][number];

/** Entries returned at most (as OpenHands' list_directory); `total_count` still counts them all. */
export const MAX_ENTRIES = 500;

const DESCRIPTION = `Lists the files and subdirectories of a directory, with their sizes and modification times.

* \`dir_path\` is absolute, or relative to the workspace (default: the workspace itself); only directories inside the workspace can be listed.
* With \`recursive\` set, subdirectories are listed too, up to 2 levels deep (.git and node_modules are not entered).
* Hidden entries (names starting with ".") are included. Directories come first, then files, each sorted by name.
* At most ${MAX_ENTRIES} entries are returned; the response says when there were more.`;

/** The `list_directory` tool: a directory's entries (2 levels deep when recursive), with size and mtime. */
export function createListDirectoryTool(): Tool<ListDirectoryAction, ListDirectoryObservation> {
  return builtInTool('list_directory', 'ListDirectory', { description: DESCRIPTION, hints: READS_ONLY, execute: list });
}

interface Found {
  absolute: string;
  relative: string;
  name: string;
  dirent: Dirent;
}

async function list(action: ListDirectoryAction, context: ToolContext): Promise<ListDirectoryObservation> {
  let dirPath = action.dir_path;
  const observation = (text: string, fields: Partial<ListDirectoryObservation> = {}): ListDirectoryObservation => ({
    ...textObservation('ListDirectoryObservation', context.mask(text)),
    dir_path: dirPath,
    entries: [],
    total_count: 0,
    is_truncated: false,
    ...fields,
  });
  return guard(
    async () => {
      dirPath = resolveInWorkspace(context.workspace, action.dir_path || '.');
      const kind = await pathKind(dirPath);
      if (kind === 'missing') throw new ToolInputError(`Directory not found: ${dirPath}`);
      if (kind !== 'directory') throw new ToolInputError(`Path is not a directory: ${dirPath}`);
      const found: Found[] = [];
      for (const dirent of await sortedEntries(dirPath)) {
        const absolute = join(dirPath, dirent.name);
        found.push({ absolute, relative: dirent.name, name: dirent.name, dirent });
        if (!action.recursive || !dirent.isDirectory() || isUnentered(dirent.name)) continue;
        context.signal.throwIfAborted();
        for (const child of await sortedEntries(absolute).catch(() => [])) {
          const relative = `${dirent.name}/${child.name}`;
          found.push({ absolute: join(absolute, child.name), relative, name: child.name, dirent: child });
        }
      }
      const entries = await mapLimit(found.slice(0, MAX_ENTRIES), 32, toEntry);
      const truncated = found.length > MAX_ENTRIES;
      if (found.length === 0) return observation(`Directory ${dirPath} is empty.`);
      const lines = entries.map((entry, index) =>
        entry.is_directory ? `${found[index]!.relative}/` : `${found[index]!.relative}  (${formatSize(entry.size)})`,
      );
      const summary = truncated
        ? `${found.length} entries, showing the first ${MAX_ENTRIES}`
        : `${found.length} entr${found.length === 1 ? 'y' : 'ies'}`;
      return observation(`Listed directory ${dirPath} (${summary}):\n${lines.join('\n')}`, {
        entries,
        total_count: found.length,
        is_truncated: truncated,
      });
    },
    (message) => observation(message, { is_error: true }),
  );
}

/** Directories a recursive listing names but does not enter. */
function isUnentered(name: string): boolean {
  return name === '.git' || SKIPPED_DIRECTORIES.has(name);
}

/** The entries of `directory`: directories first, then the rest, each by name. */
async function sortedEntries(directory: string): Promise<Dirent[]> {
  const entries = await readdir(directory, { withFileTypes: true });
  return entries.sort(
    (a, b) => Number(b.isDirectory()) - Number(a.isDirectory()) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0),
  );
}

/** The entry for `found`: a symbolic link is described by its target when it has one, else by itself. */
async function toEntry(found: Found): Promise<FileEntry> {
  const info = await stat(found.absolute).catch(() => lstat(found.absolute));
  const isDirectory = info.isDirectory();
  return {
    name: found.name,
    path: found.absolute,
    is_directory: isDirectory,
    size: isDirectory ? 0 : info.size,
    modified_time: new Date(info.mtimeMs).toISOString(),
  };
}
