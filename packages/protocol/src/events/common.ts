import { type TProperties, Type } from '@sinclair/typebox';
import { kindShape, stringEnum, withDefault } from '../schema/builders.ts';

export const EVENT_SOURCES = ['agent', 'user', 'environment'] as const;
export type EventSource = (typeof EVENT_SOURCES)[number];

const sourceSchema = () => stringEnum(EVENT_SOURCES, { description: 'Who produced the event.' });

/** How a shape treats `source`: a default, or required (no default). */
export type SourceRule = { default: EventSource } | 'required';

/** An event shape: the common fields (`id`, `timestamp`, `source`, `kind`) plus the shape's own. */
export function eventShape<K extends string, P extends TProperties>(
  kind: K,
  source: SourceRule,
  description: string,
  fields: P,
) {
  return kindShape(kind, description, {
    id: Type.Optional(Type.String({ description: 'Unique event id (UUID or ULID).' })),
    timestamp: Type.Optional(Type.String({ description: 'When the event happened (ISO-8601, UTC).' })),
    source: source === 'required' ? sourceSchema() : withDefault(sourceSchema(), source.default),
    ...fields,
  });
}
