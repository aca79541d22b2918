import { rm } from 'node:fs/promises';
import { isAbsolute } from 'node:path';
import type { ActionOf, FileEditorCommand } from '@bosun/protocol';
import { countLines, lineEnding, lineNumberAt, numberedRange, offsetAfterLine } from '../shared/lines.ts';
import { pathKind, readTextFile, writeTextFile } from '../shared/text-file.ts';
import { FILE_TRUNCATED_NOTICE, MAX_OUTPUT_CHARS, findOccurrences, truncateText } from '../shared/text.ts';
import { ToolInputError, resolveInWorkspace } from '../workspace-path.ts';
import { EditHistory } from './history.ts';
import { invalidParameter, required } from './messages.ts';
import { isImagePath, viewDirectory, viewFile, viewImage } from './view.ts';

/** The arguments of a file editor command (the same for `file_editor` and `planning_file_editor`). */
export type FileEditorArguments = Omit<ActionOf<'FileEditorAction'>, 'kind'>;

/** What a command did: the text the LLM reads plus the structured fields of the observation. */
export interface EditorResult {
  text: string;
  path: string;
  prevExist: boolean;
  oldContent: string | null;
  newContent: string | null;
  imageUrl?: string;
}

/** Lines of context shown around an edit (as OpenHands). */
const SNIPPET_CONTEXT = 4;

export interface FileEditorOptions {
  /** Refuses an edit (not a `view`) of `path` by returning why; `undefined` allows it. */
  refuseEdit?(path: string, command: FileEditorCommand, workspace: string): string | undefined;
}

/**
 * The engine of the file editor tools: validates paths (absolute, inside the workspace), runs the five
 * commands, and keeps the per-file undo history of the edits it made. Problems of the call are thrown as
 * `ToolInputError`.
 */
export class FileEditor {
  private readonly history = new EditHistory();

  constructor(private readonly options: FileEditorOptions = {}) {}

  async run(args: FileEditorArguments, workspace: string): Promise<EditorResult> {
    const path = await this.validatePath(args.command, args.path, workspace);
    if (args.command !== 'view') {
      const refusal = this.options.refuseEdit?.(path, args.command, workspace);
      if (refusal) throw new ToolInputError(refusal);
    }
    switch (args.command) {
      case 'view':
        return this.view(path, args.view_range);
      case 'create':
        return this.create(path, required(args.file_text, 'create', 'file_text'));
      case 'str_replace':
        return this.strReplace(path, required(args.old_str, 'str_replace', 'old_str'), args.new_str ?? '');
      case 'insert':
        return this.insert(
          path,
          required(args.insert_line, 'insert', 'insert_line'),
          required(args.new_str, 'insert', 'new_str'),
        );
      case 'undo_edit':
        return this.undo(path);
    }
  }

  private async validatePath(command: FileEditorCommand, path: string, workspace: string): Promise<string> {
    if (!isAbsolute(path)) {
      let hint = 'The path should be an absolute path, starting with `/`.';
      const suggestion = await existingInWorkspace(workspace, path);
      if (suggestion) hint += ` Maybe you meant ${suggestion}?`;
      throw invalidParameter('path', path, hint);
    }
    const absolute = resolveInWorkspace(workspace, path);
    const kind = await pathKind(absolute);
    if (command === 'create') {
      if (kind === 'directory') {
        throw invalidParameter('path', absolute, `The path ${absolute} is a directory; \`create\` needs a file path.`);
      }
      if (kind !== 'missing') {
        throw invalidParameter(
          'path',
          absolute,
          `File already exists at: ${absolute}. Cannot overwrite files using command \`create\`.`,
        );
      }
      return absolute;
    }
    if (kind === 'missing' && !(command === 'undo_edit' && this.history.has(absolute))) {
      throw invalidParameter('path', absolute, `The path ${absolute} does not exist. Please provide a valid path.`);
    }
    if (kind === 'directory' && command !== 'view') {
      throw invalidParameter(
        'path',
        absolute,
        `The path ${absolute} is a directory and only the \`view\` command can be used on directories.`,
      );
    }
    return absolute;
  }

  private async view(path: string, viewRange: readonly number[] | null | undefined): Promise<EditorResult> {
    const kind = await pathKind(path);
    const shown =
      kind === 'directory'
        ? await viewDirectory(path, viewRange)
        : isImagePath(path) && !viewRange
          ? await viewImage(path)
          : await viewFile(path, viewRange);
    return { path, prevExist: true, oldContent: null, newContent: null, ...shown };
  }

  private async create(path: string, fileText: string): Promise<EditorResult> {
    await writeTextFile(path, fileText);
    this.history.push(path, null);
    return {
      text: `File created successfully at: ${path}`,
      path,
      prevExist: false,
      oldContent: null,
      newContent: fileText,
    };
  }

  private async strReplace(path: string, oldStr: string, replacement: string): Promise<EditorResult> {
    if (oldStr === '') {
      throw invalidParameter('old_str', '""', 'It must not be empty: give the exact text to replace.');
    }
    if (replacement === oldStr) {
      throw invalidParameter(
        'new_str',
        replacement,
        'No replacement was performed. `new_str` and `old_str` must be different.',
      );
    }
    const content = await readTextFile(path);
    const match = findUnique(content, oldStr, replacement, path);
    const updated =
      content.slice(0, match.index) + match.replacement + content.slice(match.index + match.search.length);
    await writeTextFile(path, updated);
    this.history.push(path, content);
    const line = lineNumberAt(content, match.index);
    const last = line + countLines(match.replacement) + SNIPPET_CONTEXT;
    const snippet = numberedRange(updated, line - SNIPPET_CONTEXT, last);
    const text =
      `The file ${path} has been edited. Here's the result of running \`cat -n\` on a snippet of ${path}:\n` +
      `${snippet}\nReview the changes and make sure they are as expected. Edit the file again if necessary.`;
    return { text: clip(text), path, prevExist: true, oldContent: content, newContent: updated };
  }

  private async insert(path: string, insertLine: number, newStr: string): Promise<EditorResult> {
    const content = await readTextFile(path);
    const total = countLines(content);
    if (!Number.isInteger(insertLine) || insertLine < 0 || insertLine > total) {
      throw invalidParameter(
        'insert_line',
        insertLine,
        `It should be within the range of allowed values: [0, ${total}] (the file has ${total} lines; 0 inserts at the top).`,
      );
    }
    const eol = lineEnding(content);
    let insertion = eol === '\r\n' ? newStr.replace(/(?<!\r)\n/g, '\r\n') : newStr;
    const at = offsetAfterLine(content, insertLine);
    let before = content.slice(0, at);
    const after = content.slice(at);
    const appendingToUnterminated = after === '' && content !== '' && !content.endsWith('\n');
    if (appendingToUnterminated) before += eol;
    else if (!insertion.endsWith('\n')) insertion += eol;
    const updated = before + insertion + after;
    await writeTextFile(path, updated);
    this.history.push(path, content);
    const inserted = Math.max(1, countLines(insertion));
    const snippet = numberedRange(updated, insertLine - SNIPPET_CONTEXT + 1, insertLine + inserted + SNIPPET_CONTEXT);
    const text = `The file ${path} has been edited. Here's the result of running \`cat -n\` on a snippet of the edited file:\n${snippet}\nReview the changes and make sure they are as expected (correct indentation, no duplicate lines, etc). Edit the file again if necessary.`;
    return { text: clip(text), path, prevExist: true, oldContent: content, newContent: updated };
  }

  private async undo(path: string): Promise<EditorResult> {
    const previous = this.history.pop(path);
    if (previous === undefined) {
      throw new ToolInputError(
        `No edit history found for ${path}. Only edits made with this tool in this conversation can be undone.`,
      );
    }
    const current = (await pathKind(path)) === 'missing' ? null : await readTextFile(path);
    if (previous === null) {
      await rm(path, { force: true });
      return {
        text: `Last edit to ${path} undone successfully. The file did not exist before that edit, so it was removed.`,
        path,
        prevExist: current !== null,
        oldContent: current,
        newContent: null,
      };
    }
    await writeTextFile(path, previous);
    const shown =
      countLines(previous) === 0 ? '(the file is now empty)' : numberedRange(previous, 1, Number.MAX_SAFE_INTEGER);
    const text = `Last edit to ${path} undone successfully. Here's the result of running \`cat -n\` on ${path}:\n${shown}\n`;
    return { text: clip(text), path, prevExist: current !== null, oldContent: current, newContent: previous };
  }
}

/** `path` resolved in the workspace when something exists there (for suggestions), else `undefined`. */
async function existingInWorkspace(workspace: string, path: string): Promise<string | undefined> {
  try {
    const absolute = resolveInWorkspace(workspace, path);
    return (await pathKind(absolute)) === 'missing' ? undefined : absolute;
  } catch {
    return undefined;
  }
}

interface Match {
  index: number;
  search: string;
  replacement: string;
}

/**
 * The single place `oldStr` occurs in `content`. Tried in order until one occurs: the text as given; with `\n`
 * turned into `\r\n` for a CRLF file; without surrounding whitespace (as OpenHands, `newStr` trimmed alike).
 */
function findUnique(content: string, oldStr: string, newStr: string, path: string): Match {
  const attempts: Array<[string, string]> = [[oldStr, newStr]];
  if (content.includes('\r\n') && /(?<!\r)\n/.test(oldStr)) {
    attempts.push([oldStr.replace(/(?<!\r)\n/g, '\r\n'), newStr.replace(/(?<!\r)\n/g, '\r\n')]);
  }
  const trimmed = oldStr.trim();
  if (trimmed !== '' && trimmed !== oldStr) attempts.push([trimmed, newStr.trim()]);
  for (const [search, replacement] of attempts) {
    const found = findOccurrences(content, search);
    if (found.length === 0) continue;
    if (found.length > 1) {
      const lines = [...new Set(found.map((index) => lineNumberAt(content, index)))];
      throw new ToolInputError(
        `No replacement was performed. Multiple occurrences of old_str \`${oldStr}\` in lines [${lines.join(', ')}]. Please ensure it is unique: include more of the surrounding lines in \`old_str\`.`,
      );
    }
    return { index: found[0]!, search, replacement };
  }
  throw new ToolInputError(
    `No replacement was performed, old_str \`${oldStr}\` did not appear verbatim in ${path}. \`view\` the file and copy the exact text, including whitespace and indentation.`,
  );
}

function clip(text: string): string {
  return truncateText(text, MAX_OUTPUT_CHARS, FILE_TRUNCATED_NOTICE).text;
}
