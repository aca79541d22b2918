import type { TextContent } from '@bosun/protocol';

/** The `content` of an observation: one text block. */
export function textContent(text: string): TextContent[] {
  return [{ type: 'text', text, cache_prompt: false }];
}

/** The fields every observation starts from: `text` as its content, not an error. */
export function textObservation<K extends string>(kind: K, text: string) {
  return { kind, content: textContent(text), is_error: false };
}

/** The fields a file-changing tool's observation starts from: `text` as its content, nothing changed yet. */
export function fileChange<K extends string>(kind: K, text: string, filePath: string) {
  return {
    ...textObservation(kind, text),
    file_path: filePath,
    is_new_file: false,
    old_content: null,
    new_content: null,
  };
}
