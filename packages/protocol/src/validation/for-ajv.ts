/**
 * Rewrites a published shape into the form ajv validates, keeping its meaning:
 * - ajv applies `default`s everywhere except inside `anyOf`/`oneOf`, so `T | null` (`anyOf: [T, null]`) becomes
 *   `if null else T`, and a union whose tag may be omitted (`type` of content blocks, which defaults) becomes an
 *   `if`/`else` chain on the tag that falls back to the first variant;
 * - ajv's `discriminator` does not take the OpenAPI `mapping`, so it is dropped (the tags are in the variants).
 */

type Schema = Record<string, unknown>;
type Lookup = (id: string) => Schema | undefined;

export function forAjv(schema: unknown, lookup: Lookup): unknown {
  if (Array.isArray(schema)) return schema.map((item) => forAjv(item, lookup));
  if (!schema || typeof schema !== 'object') return schema;
  const source = schema as Schema;
  const out: Schema = {};
  for (const [key, value] of Object.entries(source)) out[key] = forAjv(value, lookup);

  const anyOf = source.anyOf as Schema[] | undefined;
  if (anyOf?.length === 2 && anyOf.some(isNull)) {
    delete out.anyOf;
    out.if = { type: 'null' };
    out.else = forAjv(
      anyOf.find((branch) => !isNull(branch)),
      lookup,
    );
  }

  const discriminator = source.discriminator as { propertyName: string } | undefined;
  if (discriminator && Array.isArray(source.oneOf)) {
    const variants = (source.oneOf as Schema[]).map((branch) => resolve(branch, lookup));
    const tag = discriminator.propertyName;
    if (variants.every((variant) => requires(variant, tag))) {
      out.discriminator = { propertyName: tag };
    } else {
      delete out.discriminator;
      delete out.oneOf;
      Object.assign(out, tagChain(source.oneOf as Schema[], variants, tag));
    }
  }
  return out;
}

function isNull(schema: Schema): boolean {
  return schema.type === 'null' && Object.keys(schema).length === 1;
}

function resolve(branch: Schema, lookup: Lookup): Schema {
  if (typeof branch.$ref !== 'string') return branch;
  const target = lookup(branch.$ref);
  if (!target) throw new Error(`unknown schema ${branch.$ref}`);
  return target;
}

function requires(schema: Schema, property: string): boolean {
  return Array.isArray(schema.required) && schema.required.includes(property);
}

function tagValue(schema: Schema, tag: string): string {
  const value = (schema.properties as Record<string, { const?: unknown }> | undefined)?.[tag]?.const;
  if (typeof value !== 'string') throw new Error(`variant without a literal '${tag}'`);
  return value;
}

/** `if tag == B or (no tag and B's required fields present) then B else if ... else A` (A: first variant). */
function tagChain(branches: Schema[], variants: Schema[], tag: string): Schema {
  let chain: Schema = { ...branches[0] };
  for (let i = branches.length - 1; i >= 1; i--) {
    const variant = variants[i] as Schema;
    const ownRequired = ((variant.required as string[] | undefined) ?? []).filter((field) => field !== tag);
    const byTag = { properties: { [tag]: { const: tagValue(variant, tag) } }, required: [tag] };
    const condition = ownRequired.length
      ? { anyOf: [byTag, { not: { required: [tag] }, required: ownRequired }] }
      : byTag;
    // biome-ignore lint/suspicious/noThenProperty: `then` is the JSON Schema keyword here.
    chain = { if: condition, then: { ...branches[i] }, else: chain };
  }
  return chain;
}
