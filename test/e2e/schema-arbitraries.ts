import fc from 'fast-check';

/** A JSON Schema of the OpenAPI document (its `$ref`s point at `#/components/schemas/`). */
export type Schema = Record<string, unknown>;

/** Values that break assumptions: wrong types, edge numbers, odd strings, a deep (but serializable) value. */
const ODD_VALUES: unknown[] = [
  null,
  true,
  0,
  -1,
  1.5,
  2 ** 53,
  1e308,
  -1e308,
  '',
  ' ',
  'Infinity',
  'NaN',
  '-0',
  '0x10',
  '%ff',
  '\u0000',
  '\ud800',
  '../../../etc/passwd',
  '🙂'.repeat(50),
  'x'.repeat(5000),
  [],
  [null],
  {},
  { kind: 'Nope' },
  { __proto__: null, constructor: { prototype: { polluted: true } } },
  nestedObject(300),
];

function nestedObject(depth: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
}

export const oddValue = (): fc.Arbitrary<unknown> =>
  fc.oneof(fc.constantFrom(...ODD_VALUES), fc.string({ unit: 'binary', maxLength: 40 }), fc.jsonValue({ maxDepth: 2 }));

/**
 * Values valid for `schema` (as far as JSON Schema says: patterns and cross-field rules may still be broken),
 * resolving `$ref`s in `components`. `depth` bounds the nesting: past it, objects get their required fields only.
 */
export function validValue(schema: unknown, components: Record<string, Schema>, depth = 5): fc.Arbitrary<unknown> {
  if (!schema || typeof schema !== 'object') return fc.jsonValue({ maxDepth: 2 });
  const s = schema as Schema;
  const next = (child: unknown) => validValue(child, components, depth - 1);
  if (typeof s.$ref === 'string') {
    const target = components[s.$ref.replace('#/components/schemas/', '')];
    return depth <= 0 && !target ? fc.constant(null) : validValue(target, components, depth);
  }
  if ('const' in s) return fc.constant(s.const);
  if (Array.isArray(s.enum)) return fc.constantFrom(...(s.enum as unknown[]));
  if (Array.isArray(s.allOf)) return objectFor(mergeAll(s, components), components, depth);
  for (const key of ['oneOf', 'anyOf'] as const) {
    if (Array.isArray(s[key]))
      return fc.oneof(...(s[key] as unknown[]).map((branch) => validValue(branch, components, depth)));
  }
  if (Array.isArray(s.type)) {
    return fc.oneof(...(s.type as string[]).map((type) => validValue({ ...s, type }, components, depth)));
  }
  switch (s.type) {
    case 'string':
      return stringFor(s);
    case 'integer':
      return fc.integer({ min: bound(s, 'minimum', -1000), max: bound(s, 'maximum', 1000) });
    case 'number':
      return fc.double({
        min: bound(s, 'minimum', -1000),
        max: bound(s, 'maximum', 1000),
        noNaN: true,
        noDefaultInfinity: true,
      });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      const minLength = (s.minItems as number | undefined) ?? 0;
      const maxLength = Math.max(minLength, Math.min((s.maxItems as number | undefined) ?? 3, depth > 0 ? 3 : 0));
      return fc.array(next(s.items), { minLength, maxLength });
    }
    case 'object':
      return objectFor(s, components, depth);
    default:
      return s.properties ? objectFor(s, components, depth) : fc.jsonValue({ maxDepth: 2 });
  }
}

/** An `allOf` of object schemas as one object schema: every property, every required name. */
function mergeAll(s: Schema, components: Record<string, Schema>): Schema {
  const parts = [...(s.allOf as Schema[]), s].map((part) =>
    typeof part.$ref === 'string' ? (components[part.$ref.replace('#/components/schemas/', '')] ?? {}) : part,
  );
  return {
    type: 'object',
    properties: Object.assign({}, ...parts.map((part) => part.properties ?? {})),
    required: parts.flatMap((part) => (part.required ?? []) as string[]),
  };
}

function bound(s: Schema, key: 'minimum' | 'maximum', fallback: number): number {
  const exclusive = s[key === 'minimum' ? 'exclusiveMinimum' : 'exclusiveMaximum'];
  if (typeof exclusive === 'number') return key === 'minimum' ? exclusive + 1 : exclusive - 1;
  return typeof s[key] === 'number' ? (s[key] as number) : fallback;
}

function stringFor(s: Schema): fc.Arbitrary<string> {
  if (s.format === 'uuid') return fc.uuid();
  if (s.format === 'date-time') {
    return fc
      .date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true })
      .map((d) => d.toISOString());
  }
  if (typeof s.pattern === 'string') {
    // fast-check builds strings of most patterns; of one it cannot (a lookahead), any string (often a 422).
    try {
      return fc.stringMatching(new RegExp(s.pattern));
    } catch {}
  }
  const minLength = (s.minLength as number | undefined) ?? 0;
  const maxLength = Math.max(minLength, Math.min((s.maxLength as number | undefined) ?? 12, 24));
  return fc.string({ minLength, maxLength });
}

function objectFor(s: Schema, components: Record<string, Schema>, depth: number): fc.Arbitrary<unknown> {
  const properties = (s.properties ?? {}) as Record<string, unknown>;
  const required = new Set((s.required ?? []) as string[]);
  const names = Object.keys(properties).filter((name) => depth > 0 || required.has(name));
  const model = Object.fromEntries(names.map((name) => [name, validValue(properties[name], components, depth - 1)]));
  const record = fc.record(model, { requiredKeys: names.filter((name) => required.has(name)) });
  const extra = s.additionalProperties;
  if (!extra || typeof extra !== 'object' || depth <= 0) return record;
  const keyPattern = (s.propertyNames as Schema | undefined)?.pattern;
  const keys = typeof keyPattern === 'string' ? fc.stringMatching(new RegExp(keyPattern)) : fc.string({ minLength: 1 });
  const entries = fc.dictionary(
    keys.filter((key) => key.length <= 20),
    validValue(extra, components, depth - 1),
    {
      maxKeys: 3,
    },
  );
  return fc.tuple(entries, record).map(([more, own]) => ({ ...more, ...(own as object) }));
}

/** Every path to a value inside `value` (the root is `[]`). */
function pathsOf(value: unknown, at: (string | number)[] = [], out: (string | number)[][] = []): typeof out {
  out.push(at);
  if (out.length > 200) return out;
  if (Array.isArray(value)) value.forEach((item, i) => pathsOf(item, [...at, i], out));
  else if (value && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) pathsOf(child, [...at, key], out);
  }
  return out;
}

/**
 * `value` broken in one place: a value replaced by an odd one, a property dropped, or an unknown property added.
 */
export function mutated(value: unknown): fc.Arbitrary<unknown> {
  return fc
    .tuple(fc.nat(), fc.constantFrom('replace', 'drop', 'add'), oddValue(), fc.string({ maxLength: 12 }))
    .map(([pick, how, odd, name]) => {
      const copy = structuredClone(value) as unknown;
      const paths = pathsOf(copy);
      const path = paths[pick % paths.length] as (string | number)[];
      if (path.length === 0) return how === 'replace' ? odd : copy;
      const parent = path.slice(0, -1).reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], copy);
      const key = path[path.length - 1] as string | number;
      const target = parent as Record<string | number, unknown>;
      if (how === 'replace') target[key] = odd;
      else if (how === 'drop') {
        if (Array.isArray(target)) target.splice(Number(key), 1);
        else delete target[key];
      } else if (!Array.isArray(target)) target[`${name}_x`] = odd;
      return copy;
    });
}
