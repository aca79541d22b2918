import type { TextContent } from '@bosun/protocol';

/** The `content` of an observation: one text block. */
export function textContent(text: string): TextContent[] {
  return [{ type: 'text', text, cache_prompt: false }];
}
