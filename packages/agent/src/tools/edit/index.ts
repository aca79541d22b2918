import type { ActionOf, ObservationOf } from '@bosun/protocol';
import { fileChange } from '../observations.ts';
import { CHANGES_FILES, builtInTool } from '../shared/definition.ts';
import { guard } from '../shared/errors.ts';
import { countLines, lineNumberAt, numberedRange } from '../shared/lines.ts';
import { pathKind, readTextFile, writeTextFile } from '../shared/text-file.ts';
import { FILE_TRUNCATED_NOTICE, MAX_OUTPUT_CHARS, findOccurrences, truncateText } from '../shared/text.ts';
import type { Tool, ToolContext } from '../tool.ts';
import { ToolInputError, resolveInWorkspace } from '../workspace-path.ts';

type EditAction = ActionOf<'EditAction'>;
type EditObservation = ObservationOf<'EditObservation'>;

const DESCRIPTION = `Replaces text in a file.

It replaces \`old_string\` with \`new_string\`. By default exactly one occurrence must exist; to replace several, set \`expected_replacements\` to their number. The edit fails, changing nothing, when the number of occurrences differs.

Key behaviours:
- \`file_path\` is absolute, or relative to the workspace; only files inside the workspace can be edited.
- \`old_string\` must match EXACTLY, including whitespace and indentation.
- To create a new file, give an empty \`old_string\` and the whole content as \`new_string\` (refused if the file exists).
- When \`old_string\` is not found, or occurs a different number of times than expected, nothing is changed.
- \`old_string\` and \`new_string\` must differ.

Tips:
- Include enough context (3-5 lines) to make \`old_string\` unique.
- Read the file first (read_file) to copy the exact text.
- When most of a file changes, use \`write_file\` instead.

Examples:
- Replace once: edit(file_path="src/app.py", old_string="old text", new_string="new text")
- Create a file: edit(file_path="src/new.py", old_string="", new_string="print('hello')\\n")
- Replace three occurrences: edit(file_path="src/app.py", old_string="foo", new_string="bar", expected_replacements=3)`;

/** The `edit` tool: find-and-replace with an expected number of occurrences; an empty `old_string` creates a file. */
export function createEditTool(): Tool<EditAction, EditObservation> {
  return builtInTool('edit', 'Edit', { description: DESCRIPTION, hints: CHANGES_FILES, execute: edit });
}

async function edit(action: EditAction, context: ToolContext): Promise<EditObservation> {
  let filePath = action.file_path;
  const observation = (text: string, fields: Partial<EditObservation> = {}): EditObservation => ({
    ...fileChange(
      'EditObservation',
      context.mask(truncateText(text, MAX_OUTPUT_CHARS, FILE_TRUNCATED_NOTICE).text),
      filePath,
    ),
    replacements_made: 0,
    ...fields,
  });
  return guard(
    async () => {
      filePath = resolveInWorkspace(context.workspace, action.file_path);
      const kind = await pathKind(filePath);
      if (action.old_string === '') {
        if (kind !== 'missing') {
          throw new ToolInputError(
            `Cannot create a file that already exists: ${filePath}. Use write_file to overwrite it, or give a non-empty old_string to edit it.`,
          );
        }
        await writeTextFile(filePath, action.new_string);
        return observation(`Created new file: ${filePath} (${countLines(action.new_string)} lines).`, {
          is_new_file: true,
          replacements_made: 1,
          new_content: context.mask(action.new_string),
        });
      }
      if (kind === 'missing') {
        throw new ToolInputError(`File not found: ${filePath}. To create a new file, use old_string=''.`);
      }
      if (kind === 'directory') throw new ToolInputError(`Path is a directory, not a file: ${filePath}`);
      if (action.old_string === action.new_string) {
        throw new ToolInputError('No changes to apply: old_string and new_string are identical.');
      }
      const content = await readTextFile(filePath);
      const found = findOccurrences(content, action.old_string);
      if (found.length === 0) {
        throw new ToolInputError(
          `Could not find the string to replace: 0 occurrences found in ${filePath}. Use read_file to check the exact text, including whitespace and indentation.`,
        );
      }
      if (found.length !== action.expected_replacements) {
        const lines = [...new Set(found.map((index) => lineNumberAt(content, index)))];
        const expected = `${action.expected_replacements} occurrence${action.expected_replacements === 1 ? '' : 's'}`;
        throw new ToolInputError(
          `Expected ${expected} but found ${found.length} in ${filePath} (lines [${lines.join(', ')}]); nothing was replaced. Make old_string more specific, or set expected_replacements to the number to replace.`,
        );
      }
      const updated = content.split(action.old_string).join(action.new_string);
      await writeTextFile(filePath, updated);
      const line = lineNumberAt(content, found[0]!);
      const snippet = numberedRange(updated, line - 4, line + countLines(action.new_string) + 4);
      return observation(
        `Successfully edited ${filePath} (${found.length} replacement(s)). Here's the result of running ` +
          `\`cat -n\` on a snippet around the first one:\n${snippet}`,
        {
          replacements_made: found.length,
          old_content: context.mask(content),
          new_content: context.mask(updated),
        },
      );
    },
    (message) => observation(message, { is_error: true }),
  );
}
