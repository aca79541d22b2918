import type { ActionOf, ObservationOf } from '@bosun/protocol';
import { textObservation } from '../observations.ts';
import { READS_ONLY, builtInTool } from '../shared/definition.ts';
import { guard } from '../shared/errors.ts';
import { numberLines, offsetAfterLine, splitLines } from '../shared/lines.ts';
import { readTextFile } from '../shared/text-file.ts';
import type { Tool, ToolContext } from '../tool.ts';
import { ToolInputError, resolveInWorkspace } from '../workspace-path.ts';

type ReadFileAction = ActionOf<'ReadFileAction'>;
type ReadFileObservation = ObservationOf<'ReadFileObservation'>;

/** Lines returned when no `limit` is given (as OpenHands' read_file). */
export const DEFAULT_READ_LINES = 1000;
/** Longer lines are cut (as Gemini CLI's read_file). */
export const MAX_LINE_CHARS = 2000;
/** A read stops early, at a whole line, once its numbered text would pass this many characters. */
export const MAX_READ_CHARS = 50_000;

const DESCRIPTION = `Reads a text file and returns its content with line numbers.

* \`file_path\` is absolute, or relative to the workspace; only files inside the workspace can be read.
* \`offset\` is the 0-based line to start from and \`limit\` the number of lines to read; by default the first ${DEFAULT_READ_LINES} lines are returned.
* Large files are returned in parts: the response says which lines it shows out of how many, and which \`offset\` reads on. Lines longer than ${MAX_LINE_CHARS} characters are cut.
* Binary files and files over 10 MB cannot be read with this tool.

Examples:
- Read a whole file: read_file(file_path="/path/to/file.py")
- Read lines 101 to 150: read_file(file_path="/path/to/file.py", offset=100, limit=50)`;

/** The `read_file` tool: a text file, or `limit` lines of it from `offset`, with line numbers. */
export function createReadFileTool(): Tool<ReadFileAction, ReadFileObservation> {
  return builtInTool('read_file', 'ReadFile', { description: DESCRIPTION, hints: READS_ONLY, execute: readFile });
}

async function readFile(action: ReadFileAction, context: ToolContext): Promise<ReadFileObservation> {
  let filePath = action.file_path;
  const observation = (text: string, fields: Partial<ReadFileObservation> = {}): ReadFileObservation => ({
    ...textObservation('ReadFileObservation', context.mask(text)),
    file_path: filePath,
    file_content: '',
    is_truncated: false,
    lines_shown: null,
    total_lines: null,
    ...fields,
  });
  return guard(
    async () => {
      filePath = resolveInWorkspace(context.workspace, action.file_path);
      const text = await readTextFile(filePath);
      const lines = splitLines(text);
      const total = lines.length;
      const offset = action.offset ?? 0;
      const limit = action.limit ?? DEFAULT_READ_LINES;
      if (total === 0) return observation(`Read file: ${filePath} (the file is empty)`, { total_lines: 0 });
      if (offset >= total) {
        throw new ToolInputError(
          `Offset ${offset} is beyond the end of ${filePath}, which has ${total} lines (valid offsets: 0 to ${total - 1}).`,
        );
      }
      const end = Math.min(total, offset + limit);
      const shown: string[] = [];
      let chars = 0;
      let cutLines = false;
      for (let index = offset; index < end; index++) {
        let line = lines[index]!;
        if (line.length > MAX_LINE_CHARS) {
          line = `${line.slice(0, MAX_LINE_CHARS)}... [line cut at ${MAX_LINE_CHARS} characters]`;
          cutLines = true;
        }
        chars += line.length + 8;
        if (chars > MAX_READ_CHARS && shown.length > 0) break;
        shown.push(line);
      }
      const last = offset + shown.length;
      const isTruncated = last < total || cutLines;
      let header = `Read file: ${filePath}`;
      if (last < total) {
        header +=
          ` (showing lines ${offset + 1}-${last} of ${total}). To read more, use: ` +
          `read_file(file_path='${action.file_path}', offset=${last}, limit=${limit})`;
      } else if (offset > 0) {
        header += ` (showing lines ${offset + 1}-${last} of ${total})`;
      } else {
        header += ` (${total} lines)`;
      }
      if (cutLines) header += `\nLines longer than ${MAX_LINE_CHARS} characters were cut.`;
      return observation(`${header}\n\n${numberLines(shown, offset + 1)}`, {
        file_content: context.mask(text.slice(offsetAfterLine(text, offset), offsetAfterLine(text, last))),
        is_truncated: isTruncated,
        lines_shown: [offset + 1, last],
        total_lines: total,
      });
    },
    (message) => observation(message, { is_error: true }),
  );
}
