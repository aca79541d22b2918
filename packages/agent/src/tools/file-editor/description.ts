import { MAX_OUTPUT_CHARS } from '../shared/text.ts';

/** What the LLM reads about `file_editor`. */
export const FILE_EDITOR_DESCRIPTION = `Editor for viewing, creating and editing plain-text files.
* State is kept across calls: \`undo_edit\` reverts the last edit this tool made to a file.
* \`view\` on a file shows it with line numbers, like \`cat -n\`; \`view_range\` [start, end] shows lines start to end (1-based, inclusive; end -1 means to the end of the file). \`view\` on a directory lists its files and directories up to 2 levels deep, hidden ones excluded. \`view\` on an image (.png, .jpg, .jpeg, .gif, .webp, .bmp) shows the image.
* \`create\` writes a new file with \`file_text\` (missing parent directories are created). It refuses to overwrite an existing file: change those with \`str_replace\` or \`insert\`.
* \`str_replace\` replaces \`old_str\` with \`new_str\` (leave \`new_str\` out to delete \`old_str\`).
* \`insert\` inserts \`new_str\` AFTER line \`insert_line\` (0 inserts at the top of the file).
* Outputs longer than ${MAX_OUTPUT_CHARS} characters are clipped and marked with \`<response clipped>\`.
* Only text files inside the workspace can be used; binary files and files over 10 MB are refused.

Before editing:
1. \`view\` the file to understand its content and context.
2. When creating a file, check that the parent directory is the right place.

When editing:
- Always give absolute paths (starting with \`/\`).
- Keep the code correct and idiomatic; do not leave it broken between edits.

CRITICAL RULES FOR \`str_replace\`:
1. EXACT MATCH: \`old_str\` must match one or more consecutive lines of the file EXACTLY, whitespace and indentation included.
2. UNIQUE: \`old_str\` must occur exactly once in the file. Include enough context (3-5 lines around the change) to make it unique; when it occurs several times, nothing is replaced and the lines where it occurs are listed.
3. DIFFERENT: \`new_str\` holds the edited lines that replace \`old_str\`; the two must differ.

When you make several edits to the same file, send them as several calls of this tool in one response rather than one per response.`;
