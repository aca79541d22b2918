/**
 * Claude Code's tool names for Bosun's tools, so that hooks written for Claude Code (`"matcher": "Bash"`,
 * `"if": "Bash(git commit:*)"`) select the Bosun tools that do the same job. `file_editor` is `Read`, `Write` or
 * `Edit` depending on its command.
 */

const FIXED: Readonly<Record<string, string>> = {
  terminal: 'Bash',
  read_file: 'Read',
  write_file: 'Write',
  edit: 'Edit',
  grep: 'Grep',
  glob: 'Glob',
  list_directory: 'LS',
};

const EDITORS = new Set(['file_editor', 'planning_file_editor']);

/** The Claude Code tool a call of `toolName` with `input` is, or null when Claude Code has no such tool. */
export function claudeToolName(toolName: string, input: Record<string, unknown> | undefined): string | null {
  const fixed = FIXED[toolName];
  if (fixed) return fixed;
  if (!EDITORS.has(toolName)) return null;
  const command = input?.command;
  if (command === 'view') return 'Read';
  if (command === 'create') return 'Write';
  return typeof command === 'string' ? 'Edit' : null;
}

/** The path a file tool's call acts on (`file_path`, `path` or `dir_path`), or null. */
export function toolPath(input: Record<string, unknown> | undefined): string | null {
  for (const key of ['file_path', 'path', 'dir_path']) {
    const value = input?.[key];
    if (typeof value === 'string' && value) return value;
  }
  return null;
}
