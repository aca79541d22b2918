/** One server-sent event: its `event:` name (if any) and its `data:` lines joined. */
export interface SseMessage {
  event?: string;
  data: string;
}

/**
 * Splits a stream of text chunks into server-sent events (blank-line separated; `event:` and `data:` fields,
 * comments and other fields ignored). A last event without its blank line is still given: whether the answer
 * is complete is for the caller to say from what the events hold.
 */
export class SseParser {
  #buffer = '';

  /** The complete events in `chunk` and what came before it. */
  push(chunk: string): SseMessage[] {
    this.#buffer += chunk;
    const messages: SseMessage[] = [];
    for (;;) {
      const end = /\r?\n\r?\n/.exec(this.#buffer);
      if (!end) return messages;
      const block = this.#buffer.slice(0, end.index);
      this.#buffer = this.#buffer.slice(end.index + end[0].length);
      const message = parseBlock(block);
      if (message) messages.push(message);
    }
  }

  /** The event left without its closing blank line, if any. */
  end(): SseMessage[] {
    const rest = this.#buffer;
    this.#buffer = '';
    const message = rest.trim() ? parseBlock(rest) : undefined;
    return message ? [message] : [];
  }
}

function parseBlock(block: string): SseMessage | undefined {
  let event: string | undefined;
  const data: string[] = [];
  for (const line of block.split(/\r?\n/)) {
    if (line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
  }
  if (!data.length) return undefined;
  return { ...(event !== undefined ? { event } : {}), data: data.join('\n') };
}
