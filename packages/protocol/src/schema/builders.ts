import {
  type Static,
  type TLiteral,
  type TObject,
  type TProperties,
  type TSchema,
  type TUnsafe,
  Type,
} from '@sinclair/typebox';

/**
 * Schema builders shared by every shape of the wire model. Each shape is a TypeBox schema with an `$id`;
 * shapes reference each other with `$ref: <$id>` so that the OpenAPI document gets one named component each.
 */

export type Named = TSchema & { $id: string };

/** A reference to a named shape, typed as that shape. */
export function ref<T extends Named>(schema: T, options: { description?: string } = {}): TUnsafe<Static<T>> {
  return Type.Unsafe<Static<T>>({ ...options, $ref: schema.$id });
}

const PRIMITIVE_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'array', 'object']);

/** `T` or `null`. Primitives become `type: [T, "null"]`; references and composites become `anyOf`. */
export function nullable<T extends TSchema>(
  schema: T,
  options: Record<string, unknown> = {},
): TUnsafe<Static<T> | null> {
  const { type } = schema as { type?: unknown };
  if (typeof type === 'string' && PRIMITIVE_TYPES.has(type) && schema.$ref === undefined) {
    return Type.Unsafe<Static<T> | null>({ ...schema, ...options, type: [type, 'null'] });
  }
  return Type.Unsafe<Static<T> | null>({ ...options, anyOf: [schema, { type: 'null' }] });
}

/**
 * A field that may be omitted on input and is filled with `value` by parsing. The static type keeps the
 * field required, because every parsed value has it; `strictObject` leaves it out of `required`.
 */
export function withDefault<T extends TSchema>(schema: T, value: Static<T>): T {
  return { ...schema, default: value } as T;
}

/**
 * An object that rejects unknown properties. Properties carrying a `default` are optional on the wire and
 * present after parsing. Every named shape says what it is first, then what it holds.
 */
export function strictObject<P extends TProperties>(
  $id: string,
  description: string,
  properties: P,
): TObject<P> & { $id: string } {
  const object = Type.Object(properties, { description, $id, additionalProperties: false });
  const schema = object as { required?: string[] };
  const required = (schema.required ?? []).filter((key) => !('default' in (properties[key] as object)));
  if (required.length > 0) schema.required = required;
  else delete schema.required;
  return object as TObject<P> & { $id: string };
}

/** A string constant that is the value of a discriminator (`kind` or `type`). */
export function tag<K extends string>(value: K, options: { default?: K } = {}): TLiteral<K> {
  return Type.Literal(value, options);
}

/** A discriminator that may be omitted on input: parsing fills it with its value. */
export function defaultTag<K extends string>(value: K): TLiteral<K> {
  return withDefault(tag(value), value);
}

/**
 * A union discriminated on `propertyName`: `oneOf` of references plus `discriminator` with an explicit
 * mapping (as OpenAPI client generators expect). Each variant must declare `propertyName` as a literal.
 */
export function taggedUnion<V extends Named[]>(
  $id: string,
  description: string,
  propertyName: string,
  variants: [...V],
): TUnsafe<Static<V[number]>> & { $id: string } {
  const mapping: Record<string, string> = {};
  for (const variant of variants) {
    const tagSchema = (variant as unknown as TObject).properties?.[propertyName] as { const?: unknown } | undefined;
    if (typeof tagSchema?.const !== 'string') {
      throw new Error(`${variant.$id} has no literal '${propertyName}' to discriminate on`);
    }
    mapping[tagSchema.const] = variant.$id;
  }
  return Type.Unsafe<Static<V[number]>>({
    description,
    $id,
    type: 'object',
    oneOf: variants.map((variant) => ({ $ref: variant.$id })),
    discriminator: { propertyName, mapping },
  }) as TUnsafe<Static<V[number]>> & { $id: string };
}

/** An object with arbitrary keys (not validated at this level). */
export function openObject(options: { description?: string } = {}): TUnsafe<Record<string, unknown>> {
  return Type.Unsafe<Record<string, unknown>>({ ...options, type: 'object', additionalProperties: true });
}

/** A string that is one of `values`. */
export function stringEnum<const V extends readonly string[]>(
  values: V,
  options: { description?: string; $id?: string } = {},
): TUnsafe<V[number]> {
  return Type.Unsafe<V[number]>({ ...options, type: 'string', enum: [...values] });
}

/** A named string enum, usable with `ref`. */
export function namedEnum<const V extends readonly string[]>(
  $id: string,
  description: string,
  values: V,
): TUnsafe<V[number]> & { $id: string } {
  return stringEnum(values, { description, $id }) as TUnsafe<V[number]> & { $id: string };
}

/** A shape of a `kind`-discriminated union: a strict object whose `kind` is its name. */
export function kindShape<Kind extends string, P extends TProperties>(kind: Kind, description: string, properties: P) {
  const shape: unknown = strictObject(kind, description, { ...properties, kind: tag(kind) });
  return shape as TObject<P & { kind: TLiteral<Kind> }> & { $id: Kind };
}

/** A named shape written directly as JSON Schema, typed as `T`. */
export function namedSchema<T>(schema: Record<string, unknown> & { $id: string }): TUnsafe<T> & { $id: string } {
  return Type.Unsafe<T>(schema) as TUnsafe<T> & { $id: string };
}
