import type { Operation } from '@bosun/client';

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

const setEquals = (a: Iterable<string>, b: Iterable<string>) =>
  JSON.stringify([...new Set(a)].sort()) === JSON.stringify([...new Set(b)].sort());

/**
 * What differs between the routes a client calls and a server's OpenAPI document: a missing method or path,
 * path parameters that are not the same, a query parameter the server does not take or a required one the
 * client never sends, a body one side has and the other has not. Empty when they agree.
 */
export function contractProblems(operations: Record<string, Operation>, document: OpenApiDocument): string[] {
  const problems: string[] = [];
  for (const [name, operation] of Object.entries(operations)) {
    const at = `${name} (${operation.method} ${operation.path})`;
    const documented = document.paths[operation.path]?.[operation.method.toLowerCase()];
    if (!documented) {
      problems.push(`${at}: not in the document`);
      continue;
    }
    const parameters = documented.parameters ?? [];
    const inPath = parameters.filter((p) => p.in === 'path').map((p) => p.name);
    const placeholders = [...operation.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1] as string);
    if (!setEquals(inPath, placeholders)) problems.push(`${at}: path parameters ${inPath} in the document`);
    const query = parameters.filter((p) => p.in === 'query');
    const sent = operation.query ?? [];
    for (const name of sent) {
      if (!query.some((p) => p.name === name)) problems.push(`${at}: query parameter ${name} is not in the document`);
    }
    for (const p of query) {
      if (p.required && !sent.includes(p.name)) problems.push(`${at}: required query parameter ${p.name} never sent`);
    }
    if (Boolean(documented.requestBody) !== Boolean(operation.body)) {
      problems.push(`${at}: ${operation.body ? 'sends a body the document does not take' : 'sends no body'}`);
    }
  }
  return problems;
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
