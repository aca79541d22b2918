type Json = { [key: string]: unknown };

/**
 * The names of the properties with a `default` in `schema` and every shape it reaches through `$ref`s: a request
 * may leave them out (the server fills them in), though the protocol's types (the parsed shapes) hold them.
 */
export function defaultedProperties(schema: unknown, components: Record<string, Json>): string[] {
  const names = new Set<string>();
  const visited = new Set<string>();
  const walk = (value: unknown): void => {
    if (!value || typeof value !== 'object') return;
    const node = value as Json;
    if (typeof node.$ref === 'string') {
      const id = node.$ref.split('/').pop() as string;
      if (!visited.has(id)) {
        visited.add(id);
        walk(components[id]);
      }
    }
    for (const [name, property] of Object.entries((node.properties as Record<string, Json> | undefined) ?? {})) {
      if (property && typeof property === 'object' && 'default' in property) names.add(name);
    }
    for (const child of Object.values(node)) walk(child);
  };
  walk(schema);
  return [...names].sort();
}
