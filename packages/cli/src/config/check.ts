import type { TSchema } from '@sinclair/typebox';

/**
 * Whether `value` fits a setting's schema. Settings use few keywords (type, minimum, maximum, minLength, pattern,
 * items, a union of literals, an object of any keys), checked here directly: TypeBox's Value module or an ajv compile per key would add 20 to
 * 40 ms to every start of the server, for a handful of values. A keyword outside this set is a programming error.
 */
export function matches(schema: TSchema, value: unknown): boolean {
  if (Array.isArray(schema.anyOf)) return schema.anyOf.some((option: TSchema) => matches(option, value));
  if ('const' in schema) return value === schema.const;
  switch (schema.type) {
    case 'integer':
    case 'number':
      return (
        typeof value === 'number' &&
        (schema.type === 'number' ? Number.isFinite(value) : Number.isInteger(value)) &&
        (schema.minimum === undefined || value >= schema.minimum) &&
        (schema.maximum === undefined || value <= schema.maximum)
      );
    case 'string':
      return (
        typeof value === 'string' &&
        value.length >= (schema.minLength ?? 0) &&
        (schema.pattern === undefined || new RegExp(schema.pattern).test(value))
      );
    case 'boolean':
      return typeof value === 'boolean';
    case 'array':
      return Array.isArray(value) && value.every((item) => matches(schema.items, item));
    case 'object':
      // An object of any keys (a record: the runtime's `kubernetes`) is checked whole by its owner at start.
      if ('patternProperties' in schema && !('properties' in schema)) {
        return typeof value === 'object' && value !== null && !Array.isArray(value);
      }
      throw new Error(`a setting's schema uses a keyword the settings check does not know: ${JSON.stringify(schema)}`);
    default:
      throw new Error(`a setting's schema uses a keyword the settings check does not know: ${JSON.stringify(schema)}`);
  }
}

/** What a value of `schema` looks like, in words: "an integer from 0 to 65535" (or the schema's `expected`). */
export function expectation(schema: TSchema): string {
  if (typeof schema.expected === 'string') return schema.expected;
  const range = (kind: string) => {
    const { minimum, maximum } = schema as { minimum?: number; maximum?: number };
    if (minimum !== undefined && maximum !== undefined) return `${kind} from ${minimum} to ${maximum}`;
    if (minimum !== undefined) return `${kind} >= ${minimum}`;
    return maximum !== undefined ? `${kind} <= ${maximum}` : kind;
  };
  if (Array.isArray(schema.anyOf) && schema.anyOf.every((option: TSchema) => 'const' in option)) {
    return `one of ${schema.anyOf.map((option: TSchema) => option.const).join(', ')}`;
  }
  switch (schema.type) {
    case 'integer':
      return range('an integer');
    case 'number':
      return range('a number');
    case 'boolean':
      return 'true or false';
    case 'array':
      return `a list (comma-separated in a flag or variable) of ${expectation(schema.items).replace(/^an? /, '')}s`;
    case 'string':
      return schema.minLength ? 'a non-empty string' : 'a string';
    default:
      return 'valid';
  }
}
