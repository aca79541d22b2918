import type { MessageContent } from '@bosun/protocol';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

type Block = CallToolResult['content'][number];

const text = (value: string): MessageContent => ({ type: 'text', text: value, cache_prompt: false });

/** One block of an MCP result as the LLM can read it: text and images as they are, the rest described. */
function toContent(block: Block, mask: (text: string) => string): MessageContent {
  switch (block.type) {
    case 'text':
      return text(mask(block.text));
    case 'image':
      return { type: 'image', image_urls: [`data:${block.mimeType};base64,${block.data}`], cache_prompt: false };
    case 'audio':
      return text(`[audio (${block.mimeType}), ${Math.floor((block.data.length * 3) / 4)} bytes, not shown]`);
    case 'resource': {
      const { resource } = block;
      if ('text' in resource && typeof resource.text === 'string') return text(mask(resource.text));
      return text(`[binary resource ${resource.uri}${resource.mimeType ? ` (${resource.mimeType})` : ''}, not shown]`);
    }
    case 'resource_link':
      return text(`[resource ${block.name}: ${block.uri}]`);
    default:
      return text(mask(JSON.stringify(block)));
  }
}

/**
 * The `content` of an `MCPToolObservation` for a tool's result. A result with only `structuredContent` (or the
 * older `toolResult`) is given as its JSON text; an empty result says so, so the LLM never reads nothing.
 */
export function resultContent(result: CallToolResult, mask: (text: string) => string): MessageContent[] {
  const content = (result.content ?? []).map((block) => toContent(block, mask));
  if (content.length) return content;
  const structured = result.structuredContent ?? (result as { toolResult?: unknown }).toolResult;
  if (structured !== undefined) return [text(mask(JSON.stringify(structured)))];
  return [text(result.isError ? 'The tool failed without saying why.' : '(the tool returned nothing)')];
}
