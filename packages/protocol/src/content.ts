import { type Static, Type } from '@sinclair/typebox';
import {
  defaultTag,
  namedEnum,
  nullable,
  openObject,
  ref,
  strictObject,
  stringEnum,
  taggedUnion,
  withDefault,
} from './schema/builders.ts';

/** The supporting shapes that events, messages and observations are built from. */

export const TextContent = strictObject('TextContent', 'A block of text.', {
  type: defaultTag('text'),
  text: Type.String(),
  cache_prompt: withDefault(Type.Boolean(), false),
});
export type TextContent = Static<typeof TextContent>;

export const ImageContent = strictObject('ImageContent', 'One or more images, by URL.', {
  type: defaultTag('image'),
  image_urls: Type.Array(Type.String(), { description: 'Image URLs; `data:` URLs are allowed.' }),
  cache_prompt: withDefault(Type.Boolean(), false),
});
export type ImageContent = Static<typeof ImageContent>;

/** Text or image content; `type` may be omitted and then defaults to `text`. */
export const MessageContent = taggedUnion('MessageContent', 'Text or images of a message.', 'type', [
  TextContent,
  ImageContent,
]);
export type MessageContent = Static<typeof MessageContent>;

/** The fields of a message from a user: its role, always `user`, and its content (at least one block). */
export const userMessageFields = (can: 'sent' | 'queued') => ({
  role: withDefault(stringEnum(['user'], { description: `Only user messages can be ${can}.` }), 'user'),
  content: Type.Array(ref(MessageContent), { minItems: 1 }),
});

export const ThinkingBlock = strictObject('ThinkingBlock', 'A provider thinking block (Anthropic extended thinking).', {
  type: defaultTag('thinking'),
  thinking: Type.String(),
  signature: Type.Optional(nullable(Type.String())),
});
export type ThinkingBlock = Static<typeof ThinkingBlock>;

export const RedactedThinkingBlock = strictObject(
  'RedactedThinkingBlock',
  'A provider thinking block whose content is encrypted.',
  {
    type: defaultTag('redacted_thinking'),
    data: Type.String(),
  },
);
export type RedactedThinkingBlock = Static<typeof RedactedThinkingBlock>;

/** A thinking block or a redacted one; `type` may be omitted and then defaults to `thinking`. */
export const AnyThinkingBlock = taggedUnion(
  'AnyThinkingBlock',
  'A provider thinking block, readable or redacted.',
  'type',
  [ThinkingBlock, RedactedThinkingBlock],
);
export type AnyThinkingBlock = Static<typeof AnyThinkingBlock>;

export const ReasoningItemModel = strictObject(
  'ReasoningItemModel',
  'A reasoning item from a Responses-style model output.',
  {
    id: Type.Optional(nullable(Type.String())),
    summary: withDefault(Type.Array(Type.String()), []),
    content: Type.Optional(nullable(Type.Array(Type.String()))),
    encrypted_content: Type.Optional(
      nullable(Type.String(), { description: 'Opaque provider state. Never logged or rendered.' }),
    ),
    status: Type.Optional(nullable(Type.String())),
  },
);
export type ReasoningItemModel = Static<typeof ReasoningItemModel>;

export const MessageToolCall = strictObject('MessageToolCall', 'A tool call as the LLM returned it.', {
  id: Type.String({ description: 'Canonical tool call id.' }),
  name: Type.String(),
  arguments: Type.String({ description: 'The arguments as a JSON string.' }),
  origin: stringEnum(['completion', 'responses']),
});
export type MessageToolCall = Static<typeof MessageToolCall>;

export const SecurityRisk = namedEnum('SecurityRisk', 'The predicted risk of an action.', [
  'UNKNOWN',
  'LOW',
  'MEDIUM',
  'HIGH',
]);
export type SecurityRisk = Static<typeof SecurityRisk>;

export const CriticResult = strictObject('CriticResult', 'A critic evaluation of an action or message.', {
  score: Type.Number({ minimum: 0, maximum: 1 }),
  message: nullable(Type.String()),
  metadata: Type.Optional(nullable(openObject())),
});
export type CriticResult = Static<typeof CriticResult>;

export const Message = strictObject('Message', 'A message exactly as exchanged with the LLM.', {
  role: stringEnum(['user', 'system', 'assistant', 'tool']),
  content: withDefault(Type.Array(ref(MessageContent)), []),
  tool_calls: Type.Optional(nullable(Type.Array(ref(MessageToolCall)))),
  tool_call_id: Type.Optional(nullable(Type.String())),
  name: Type.Optional(nullable(Type.String())),
  reasoning_content: Type.Optional(nullable(Type.String())),
  thinking_blocks: withDefault(Type.Array(ref(AnyThinkingBlock)), []),
  responses_reasoning_item: Type.Optional(nullable(ref(ReasoningItemModel))),
});
export type Message = Static<typeof Message>;
