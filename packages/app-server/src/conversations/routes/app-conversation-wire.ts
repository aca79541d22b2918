import { type AppConversationFilterQuery, conversationIdPattern } from '@bosun/protocol';
import { Type } from '@sinclair/typebox';
import { conversationIdOf } from '../../events/conversation-ids.ts';

export const tags = ['App conversations'];

export const ConversationParams = Type.Object(
  { conversation_id: Type.String({ pattern: conversationIdPattern, description: 'A UUID, dashed or 32 hex digits.' }) },
  { additionalProperties: false },
);
export type ConversationParams = { conversation_id: string };

/** OpenHands' batch get: `?ids=a&ids=b`, at most 100, each a UUID dashed or not. */
export const IdsQuery = Type.Object(
  { ids: Type.Array(Type.String({ pattern: conversationIdPattern }), { minItems: 1, maxItems: 100 }) },
  { additionalProperties: false },
);
export type IdsQuery = { ids: string[] };

/** The dashed form of an id the schema let through. */
export const idOf = (text: string) => conversationIdOf(text) as string;

const instant = (description: string) => Type.Optional(Type.String({ format: 'date-time', description }));

/** A timestamp of a filter as the rows store them (UTC with `Z`), whatever offset it was given with. */
export const utc = (value: string | undefined) => (value === undefined ? undefined : new Date(value).toISOString());

export const ConversationFilterQuery = {
  title__contains: Type.Optional(Type.String({ maxLength: 200, description: 'Title contains (any case).' })),
  created_at__gte: instant('Created at or after.'),
  created_at__lt: instant('Created before.'),
  updated_at__gte: instant('Updated at or after.'),
  updated_at__lt: instant('Updated before.'),
  sandbox_id__eq: Type.Optional(Type.String({ maxLength: 255, description: 'In this sandbox.' })),
};

/** The repository's filters of a search's query. */
export function conversationFilters(query: AppConversationFilterQuery) {
  const filters = {
    titleContains: query.title__contains,
    createdAtGte: utc(query.created_at__gte),
    createdAtLt: utc(query.created_at__lt),
    updatedAtGte: utc(query.updated_at__gte),
    updatedAtLt: utc(query.updated_at__lt),
    sandboxId: query.sandbox_id__eq,
  };
  return Object.fromEntries(Object.entries(filters).filter(([, value]) => value !== undefined));
}
