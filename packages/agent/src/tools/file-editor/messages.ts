import type { FileEditorCommand } from '@bosun/protocol';
import { ToolInputError } from '../workspace-path.ts';

/** A parameter with a value the command cannot use (OpenHands' wording, so prompts tuned for it still fit). */
export function invalidParameter(name: string, value: unknown, hint: string): ToolInputError {
  const shown = Array.isArray(value) ? `[${value.join(', ')}]` : String(value);
  return new ToolInputError(`Invalid \`${name}\` parameter: ${shown}. ${hint}`);
}

const HINTS: Partial<Record<`${FileEditorCommand}.${string}`, string>> = {
  'str_replace.old_str':
    'To replace text, first `view` the file and copy `old_str` EXACTLY from it, including all whitespace and ' +
    'indentation. To add text after a known line use `insert`; to make a new file use `create`.',
  'create.file_text':
    '`create` writes a NEW file and needs `file_text` with its full content. To change an existing file use ' +
    '`str_replace` or `insert`.',
  'insert.insert_line':
    '`insert` adds `new_str` AFTER line `insert_line` (0 inserts before the first line). `view` the file first to ' +
    'pick the line.',
  'insert.new_str': '`insert` needs `new_str`, the text to insert after `insert_line`.',
};

/** A parameter the command needs was not given. */
export function missingParameter(command: FileEditorCommand, name: string): ToolInputError {
  const hint = HINTS[`${command}.${name}`];
  return new ToolInputError(
    `Parameter \`${name}\` is required for command: ${command}.${hint ? `\n\nHint: ${hint}` : ''}`,
  );
}

/** The value of a parameter `command` needs; a missing one is the call's problem. */
export function required<T>(value: T | null | undefined, command: FileEditorCommand, name: string): T {
  if (value == null) throw missingParameter(command, name);
  return value;
}
