type Json = Record<string, unknown>;
interface Parameter {
  name: string;
  in: string;
  required?: boolean;
}
export interface OpenApiDocument {
  paths: Record<string, Record<string, { parameters?: Parameter[]; requestBody?: Json }>>;
  components: { schemas: Record<string, Json> };
}

/** The names of the properties with a `default` in the request bodies of the document, following `$ref`s. */
export function defaultedRequestProperties(document: OpenApiDocument): string[] {
  const names = new Set<string>();
  const visited = new Set<string>();
  const walk = (value: unknown): void => {
    if (!value || typeof value !== 'object') return;
    const node = value as Json;
    if (typeof node.$ref === 'string') {
      const id = node.$ref.split('/').pop() as string;
      if (!visited.has(id)) {
        visited.add(id);
        walk(document.components.schemas[id]);
      }
    }
    for (const [name, property] of Object.entries((node.properties as Record<string, Json>) ?? {})) {
      if (property && 'default' in property) names.add(name);
    }
    for (const child of Object.values(node)) walk(child);
  };
  for (const item of Object.values(document.paths)) {
    for (const operation of Object.values(item)) walk(operation.requestBody);
  }
  return [...names].sort();
}
