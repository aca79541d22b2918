import { nulTextProblem } from '@bosun/http';
import { Event, type ValidationError, safeParse } from '@bosun/protocol';
import type { IncomingEvent } from '../data/index.ts';

export type IncomingResult = { ok: true; events: IncomingEvent[] } | { ok: false; errors: ValidationError[] };

/**
 * Events sent to the app (a webhook's body): each must be one of the protocol's events with an `id` and a
 * `timestamp` (whoever stored it first gave it both). Errors are located at `[...at, index, ...]`; one invalid
 * event rejects the whole batch. The JSON kept is the event as sent (before defaults are filled in).
 */
export function validateEvents(values: readonly unknown[], at: (string | number)[]): IncomingResult {
  const events: IncomingEvent[] = [];
  const errors: ValidationError[] = [];
  values.forEach((value, index) => {
    const json = JSON.stringify(value);
    const parsed = safeParse(Event, value);
    if (!parsed.ok) {
      for (const error of parsed.errors) errors.push({ ...error, loc: [...at, index, ...error.loc] });
      return;
    }
    const event = parsed.value;
    const missing = (['id', 'timestamp'] as const).filter((field) => typeof event[field] !== 'string');
    for (const field of missing) errors.push({ loc: [...at, index, field], msg: 'Field required', type: 'missing' });
    // The id is a text column of its own (the JSON escapes U+0000; PostgreSQL's text refuses it).
    if (event.id?.includes('\u0000')) {
      errors.push(nulTextProblem([...at, index, 'id']));
      return;
    }
    const timestamp = missing.length === 0 ? utcOf(event.timestamp as string) : undefined;
    if (missing.length === 0 && timestamp === undefined) {
      errors.push({
        loc: [...at, index, 'timestamp'],
        msg: 'Input should be a valid datetime',
        type: 'datetime_parsing',
      });
    }
    if (timestamp === undefined) return;
    events.push({ id: event.id as string, kind: event.kind, timestamp, source: event.source, json });
  });
  return errors.length > 0 ? { ok: false, errors } : { ok: true, events };
}

/** A time as ISO-8601 UTC with `Z` (one without a zone is read as UTC); undefined when it is not a time. */
export function utcOf(value: string): string | undefined {
  const zoned = /(Z|[+-]\d{2}:?\d{2})$/i.test(value) ? value : `${value}Z`;
  const time = new Date(zoned);
  return Number.isNaN(time.getTime()) ? undefined : time.toISOString();
}
