import type { ErrorObject } from 'ajv';
import type { ValidationError } from '../errors.ts';
import { protocolSchemas } from '../registry.ts';

/**
 * Turns ajv's errors into `{loc, msg, type}` items: `loc` is the path to the offending value (with the
 * missing or unknown property name appended), `type` a stable code, `msg` a sentence naming what was expected
 * and what was found. Codes follow the ones OpenHands (pydantic) clients already know.
 */
export function toValidationErrors(
  errors: readonly ErrorObject[],
  prefix: (string | number)[] = [],
): ValidationError[] {
  const out: ValidationError[] = [];
  const seen = new Set<string>();
  // A value of the wrong type makes every other complaint about that same value noise: report the type once.
  const typeErrorAt = new Set(errors.filter((e) => e.keyword === 'type').map((e) => e.instancePath));
  const reportedTypeAt = new Set<string>();
  for (const error of errors) {
    if (SUMMARY_KEYWORDS.has(error.keyword)) continue;
    if (typeErrorAt.has(error.instancePath) && error.propertyName === undefined) {
      if (error.keyword !== 'type' || reportedTypeAt.has(error.instancePath)) continue;
      reportedTypeAt.add(error.instancePath);
    }
    const item = describe(error);
    // Errors about an object's keys (`propertyNames`) name the key itself.
    const key = error.propertyName === undefined ? [] : [cut(error.propertyName)];
    const loc = [...prefix, ...pointerToPath(error.instancePath), ...key, ...item.extra.map(cut)];
    const identity = `${JSON.stringify(loc)}|${item.type}`;
    if (seen.has(identity)) continue;
    seen.add(identity);
    out.push({ loc, msg: item.msg, type: item.type });
  }
  return out;
}

/** Keywords whose errors only summarise the errors of their subschemas, which are reported instead. */
const SUMMARY_KEYWORDS = new Set(['if', 'anyOf', 'oneOf', 'propertyNames']);

function pointerToPath(pointer: string): (string | number)[] {
  if (!pointer) return [];
  return pointer
    .split('/')
    .slice(1)
    .map((segment) => (/^\d+$/.test(segment) ? Number(segment) : segment.replace(/~1/g, '/').replace(/~0/g, '~')));
}

interface Description {
  type: string;
  msg: string;
  extra: (string | number)[];
}

const TYPE_NAMES: Record<string, [code: string, noun: string]> = {
  string: ['string_type', 'a valid string'],
  integer: ['int_type', 'a valid integer'],
  number: ['float_type', 'a valid number'],
  boolean: ['bool_type', 'a valid boolean'],
  object: ['dict_type', 'an object'],
  array: ['list_type', 'a valid array'],
  null: ['none_type', 'null'],
};

function describe(error: ErrorObject): Description {
  const params = error.params as Record<string, unknown>;
  const got = error.data;
  switch (error.keyword) {
    case 'required':
      return { type: 'missing', msg: 'Field required', extra: [String(params.missingProperty)] };
    case 'additionalProperties':
      return {
        type: 'extra_forbidden',
        msg: 'Extra inputs are not permitted',
        extra: [cut(String(params.additionalProperty))],
      };
    case 'type': {
      const types = String(params.type).split(',');
      const [code] = TYPE_NAMES[types[0] as string] ?? ['type_error'];
      const nouns = types.map((t) => TYPE_NAMES[t]?.[1] ?? t);
      return { type: code, msg: `Input should be ${joinOr(nouns)}, got ${typeOf(got)}`, extra: [] };
    }
    case 'enum':
      return {
        type: 'enum',
        msg: `Input should be ${joinOr((params.allowedValues as unknown[]).map(quote))}, got ${preview(got)}`,
        extra: [],
      };
    case 'const':
      return {
        type: 'literal_error',
        msg: `Input should be ${quote(params.allowedValue)}, got ${preview(got)}`,
        extra: [],
      };
    case 'minimum':
      return {
        type: 'greater_than_equal',
        msg: `Input should be greater than or equal to ${params.limit}, got ${preview(got)}`,
        extra: [],
      };
    case 'maximum':
      return {
        type: 'less_than_equal',
        msg: `Input should be less than or equal to ${params.limit}, got ${preview(got)}`,
        extra: [],
      };
    case 'exclusiveMinimum':
      return {
        type: 'greater_than',
        msg: `Input should be greater than ${params.limit}, got ${preview(got)}`,
        extra: [],
      };
    case 'exclusiveMaximum':
      return { type: 'less_than', msg: `Input should be less than ${params.limit}, got ${preview(got)}`, extra: [] };
    case 'minLength':
      return {
        type: 'string_too_short',
        msg: `String should have at least ${plural(params.limit, 'character')}, got ${preview(got)}`,
        extra: [],
      };
    case 'maxLength':
      return {
        type: 'string_too_long',
        msg: `String should have at most ${plural(params.limit, 'character')}, got ${preview(got)}`,
        extra: [],
      };
    case 'minItems':
      return {
        type: 'too_short',
        msg: `Array should have at least ${plural(params.limit, 'item')}, got ${(got as unknown[]).length}`,
        extra: [],
      };
    case 'maxItems':
      return {
        type: 'too_long',
        msg: `Array should have at most ${plural(params.limit, 'item')}, got ${(got as unknown[]).length}`,
        extra: [],
      };
    case 'items':
      return { type: 'too_long', msg: `Array should have at most ${plural(params.limit, 'item')}`, extra: [] };
    case 'pattern':
      return {
        type: 'string_pattern_mismatch',
        msg: `String should match pattern '${params.pattern}', got ${preview(got)}`,
        extra: [],
      };
    case 'format':
      return {
        type: formatCode(String(params.format)),
        msg: `Input should be a valid ${params.format}, got ${preview(got)}`,
        extra: [],
      };
    case 'discriminator':
      return describeTag(error, params);
    default:
      return { type: error.keyword, msg: error.message ?? 'Invalid input', extra: [] };
  }
}

function describeTag(error: ErrorObject, params: Record<string, unknown>): Description {
  const tag = String(params.tag);
  const expected = expectedTags(error.parentSchema as { oneOf?: { $ref?: string }[] } | undefined, tag);
  const list = expected.map(quote).join(', ');
  if (params.tagValue === undefined) {
    return { type: 'missing', msg: `Field required: '${tag}' selects the shape, one of ${list}`, extra: [tag] };
  }
  if (typeof params.tagValue !== 'string') {
    return { type: 'string_type', msg: `Input should be a valid string, got ${typeOf(params.tagValue)}`, extra: [tag] };
  }
  return {
    type: 'union_tag_invalid',
    msg: `Input tag ${quote(cut(params.tagValue))} found using '${tag}' does not match any of the expected tags: ${list}`,
    extra: [tag],
  };
}

function expectedTags(union: { oneOf?: { $ref?: string }[] } | undefined, tag: string): string[] {
  const tags: string[] = [];
  for (const branch of union?.oneOf ?? []) {
    const variant = branch.$ref ? protocolSchemas.get(branch.$ref) : undefined;
    const value = (variant as { properties?: Record<string, { const?: unknown }> } | undefined)?.properties?.[tag]
      ?.const;
    if (typeof value === 'string') tags.push(value);
  }
  return tags;
}

function formatCode(format: string): string {
  return format === 'uuid' ? 'uuid_parsing' : format === 'date-time' ? 'datetime_parsing' : 'format';
}

function joinOr(items: string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} or ${items[items.length - 1]}`;
}

function quote(value: unknown): string {
  return typeof value === 'string' ? `'${value}'` : JSON.stringify(value);
}

function plural(count: unknown, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? `integer ${value}` : `number ${value}`;
  if (typeof value === 'string' || typeof value === 'boolean') return `${typeof value} ${preview(value)}`;
  return typeof value;
}

const PREVIEW_CHARS = 60;

/**
 * A value as short JSON for a message: an invalid value can be megabytes, and a message never echoes more than
 * `PREVIEW_CHARS` of it.
 */
function preview(value: unknown): string {
  let text: string;
  try {
    // A long string is cut before it is quoted: quoting megabytes only to drop them is wasted work.
    text = JSON.stringify(typeof value === 'string' ? value.slice(0, PREVIEW_CHARS) : value) ?? String(value);
  } catch {
    text = typeof value;
  }
  const long = text.length > PREVIEW_CHARS || (typeof value === 'string' && value.length > PREVIEW_CHARS);
  return long ? `${text.slice(0, PREVIEW_CHARS - 3)}...` : text;
}

/** A string (a property name, a tag) cut to `PREVIEW_CHARS` for a message or a `loc`; anything else as is. */
function cut<T>(value: T): T | string {
  return typeof value === 'string' && value.length > PREVIEW_CHARS ? `${value.slice(0, PREVIEW_CHARS - 3)}...` : value;
}
