import type { ActionOf, ObservationOf } from '@bosun/protocol';
import { fileChange } from '../observations.ts';
import { CHANGES_FILES, builtInTool } from '../shared/definition.ts';
import { guard } from '../shared/errors.ts';
import { countLines } from '../shared/lines.ts';
import { decodeText, isBinary, pathKind, readBytes, writeTextFile } from '../shared/text-file.ts';
import type { Tool, ToolContext } from '../tool.ts';
import { ToolInputError, resolveInWorkspace } from '../workspace-path.ts';

type WriteFileAction = ActionOf<'WriteFileAction'>;
type WriteFileObservation = ObservationOf<'WriteFileObservation'>;

const DESCRIPTION = `Writes a whole file: creates it, or replaces everything it contained.

* \`file_path\` is absolute, or relative to the workspace; only files inside the workspace can be written. Missing parent directories are created.
* \`content\` becomes the entire content of the file; nothing of the old content is kept.

Use it to create files, or to rewrite a file when most of it changes. For smaller changes to an existing file, prefer the \`edit\` tool, which replaces only the text you name.

Examples:
- Create a file: write_file(file_path="/path/to/new.py", content="print('hello')\\n")
- Rewrite a file: write_file(file_path="/path/to/existing.py", content="...the complete new content...")`;

/** The `write_file` tool: creates or overwrites a whole file. */
export function createWriteFileTool(): Tool<WriteFileAction, WriteFileObservation> {
  return builtInTool('write_file', 'WriteFile', { description: DESCRIPTION, hints: CHANGES_FILES, execute: writeFile });
}

async function writeFile(action: WriteFileAction, context: ToolContext): Promise<WriteFileObservation> {
  let filePath = action.file_path;
  const observation = (text: string, fields: Partial<WriteFileObservation> = {}): WriteFileObservation => ({
    ...fileChange('WriteFileObservation', context.mask(text), filePath),
    ...fields,
  });
  return guard(
    async () => {
      filePath = resolveInWorkspace(context.workspace, action.file_path);
      const kind = await pathKind(filePath);
      if (kind === 'directory') throw new ToolInputError(`Path is a directory, not a file: ${filePath}`);
      if (kind === 'other') throw new ToolInputError(`Path is not a regular file: ${filePath}`);
      let oldContent: string | null = null;
      if (kind === 'file') oldContent = await previousText(filePath);
      await writeTextFile(filePath, action.content);
      const lines = countLines(action.content);
      const text =
        kind === 'missing'
          ? `Successfully created and wrote to new file: ${filePath} (${lines} lines).`
          : `Successfully overwrote file: ${filePath} (${lines} lines).`;
      return observation(text, {
        is_new_file: kind === 'missing',
        old_content: oldContent === null ? null : context.mask(oldContent),
        new_content: context.mask(action.content),
      });
    },
    (message) => observation(message, { is_error: true }),
  );
}

/** What the file held, when it is text of a size the tools read (else `null`: binary or huge). */
async function previousText(path: string): Promise<string | null> {
  let bytes: Uint8Array;
  try {
    bytes = await readBytes(path);
  } catch (error) {
    if (error instanceof ToolInputError) return null;
    throw error;
  }
  return isBinary(bytes) ? null : decodeText(bytes);
}
