import type { Message, TextContent } from '@bosun/protocol';

/** The text of a message's text blocks, joined. */
export function messageText(message: Message): string {
  return contentText(message.content);
}

/** The text of the text blocks of `content`, joined by newlines. */
export function contentText(content: readonly { type: string }[]): string {
  return content
    .filter((block) => block.type === 'text')
    .map((block) => (block as TextContent).text)
    .join('\n');
}

/** `text` cut to about `limit` characters by dropping its middle (the start and the end say the most). */
export function elide(text: string, limit: number): string {
  if (text.length <= limit) return text;
  const half = Math.floor(limit / 2);
  return `${text.slice(0, half)}\n[... ${text.length - 2 * half} characters omitted ...]\n${text.slice(-half)}`;
}

/** The image URLs of a message. */
export function messageImages(message: Message): string[] {
  return message.content.flatMap((block) => (block.type === 'image' ? block.image_urls : []));
}

/** The model name to send: the model without a routing prefix such as `openai/` or `anthropic/`. */
export function wireModel(model: string): string {
  return model.replace(/^(openai\/responses\/|responses\/|openai\/|anthropic\/|hosted_vllm\/)/, '');
}

/** `base` joined with `path`, without doubled slashes. */
export function endpoint(base: string, path: string): string {
  return `${base.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
}
