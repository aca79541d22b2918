export type Json = unknown;

/**
 * A copy of `schema` whose `$ref`s (and discriminator mappings) point at `prefix + $id`, without `$id`s.
 * This is how the shapes become OpenAPI components (`#/components/schemas/`) or `$defs` of one document.
 */
export function withRefPrefix(schema: Json, prefix: string): Json {
  if (Array.isArray(schema)) return schema.map((item) => withRefPrefix(item, prefix));
  if (!schema || typeof schema !== 'object') return schema;
  const out: Record<string, Json> = {};
  for (const [key, value] of Object.entries(schema as Record<string, Json>)) {
    if (key === '$id') continue;
    if (key === '$ref' && typeof value === 'string' && !value.startsWith('#')) out[key] = prefix + value;
    else if (key === 'mapping' && value && typeof value === 'object') {
      out[key] = Object.fromEntries(Object.entries(value).map(([tag, id]) => [tag, prefix + String(id)]));
    } else out[key] = withRefPrefix(value, prefix);
  }
  return out;
}
