/**
 * Swagger drops every keyword beside a `$ref` in a parameter's schema (OpenAPI 3.0 forbade them), so a query
 * parameter of a named shape with a default lost the default and was documented as required. OpenAPI 3.1 allows
 * them (FastAPI writes `{"$ref": ..., "default": ...}`): they are put back from the route's own schema.
 */

type Json = Record<string, unknown>;

export interface ParameterSource {
  method: string | string[];
  url: string;
  schema?: Json;
}

const PLACES = { query: 'querystring', path: 'params', header: 'headers' } as const;

/** Puts back the keywords beside `$ref` that each route's parameter schemas have, into `paths` (OpenAPI form). */
export function restoreReferenceSiblings(
  paths: Record<string, Record<string, Json>>,
  routes: readonly ParameterSource[],
) {
  for (const route of routes) {
    const item = paths[route.url.replace(/:(\w+)/g, '{$1}')];
    if (!item || !route.schema) continue;
    for (const method of [route.method].flat()) {
      const parameters = (item[method.toLowerCase()]?.parameters ?? []) as Json[];
      for (const parameter of parameters) {
        const place = PLACES[parameter.in as keyof typeof PLACES];
        const properties = (route.schema[place] as Json | undefined)?.properties as Record<string, Json> | undefined;
        const own = properties?.[parameter.name as string];
        const documented = parameter.schema as Json | undefined;
        if (!own || typeof own.$ref !== 'string' || !documented || typeof documented.$ref !== 'string') continue;
        const { $ref: _, description, ...siblings } = own;
        Object.assign(documented, siblings);
        if (typeof description === 'string' && parameter.description === undefined) parameter.description = description;
      }
    }
  }
}
