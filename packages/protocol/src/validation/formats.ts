import type { Format } from 'ajv';

/** ISO-8601 date-time, with or without a zone (a time without one is read as UTC). */
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/i;

/** The string formats the wire model uses: every ajv of it knows them, and so do the build's validators. */
export const PROTOCOL_FORMATS: Record<string, Format> = {
  uuid: /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i,
  'date-time': {
    type: 'string',
    validate: (value: string) => ISO_DATE_TIME.test(value) && !Number.isNaN(Date.parse(value)),
  },
};
