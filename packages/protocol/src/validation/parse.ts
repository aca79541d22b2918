import type { Static, TSchema } from '@sinclair/typebox';
import { ProtocolValidationError, type ValidationError } from '../errors.ts';
import { Event } from '../events/index.ts';
import { Action, Observation, ToolDefinition } from '../tools/index.ts';
import { validatorFor } from './ajv.ts';
import { toValidationErrors } from './errors.ts';

export type SafeParseResult<T> = { ok: true; value: T } | { ok: false; errors: ValidationError[] };

/**
 * Validates `value` against `schema`. On success the value is returned with every omitted default filled in
 * (in place: the given object is completed and returned, which keeps parsing free of copies).
 */
export function safeParse<T extends TSchema>(schema: T, value: unknown): SafeParseResult<Static<T>> {
  const validate = validatorFor(schema);
  if (validate(value)) return { ok: true, value: value as Static<T> };
  return { ok: false, errors: toValidationErrors(validate.errors ?? []) };
}

/** Like `safeParse`, but throws a `ProtocolValidationError` carrying every `{loc, msg, type}`. */
export function parse<T extends TSchema>(schema: T, value: unknown): Static<T> {
  const result = safeParse(schema, value);
  if (result.ok) return result.value;
  throw new ProtocolValidationError((schema as { $id?: string }).$id ?? 'value', result.errors);
}

export const parseEvent = (value: unknown): Event => parse(Event, value);
export const parseAction = (value: unknown): Action => parse(Action, value);
export const parseObservation = (value: unknown): Observation => parse(Observation, value);
export const parseToolDefinition = (value: unknown): ToolDefinition => parse(ToolDefinition, value);
export const safeParseEvent = (value: unknown): SafeParseResult<Event> => safeParse(Event, value);
