/**
 * What the OpenAPI document says of each operation beyond its route schema: its `operationId` and who may call
 * it. Ids are made as FastAPI makes them (`<name><path with non-word characters as _>_<method>`), so an
 * operation OpenHands has gets the very id it has there, and clients generated for one call the other unchanged.
 */

type Json = Record<string, unknown>;

export interface OperationRules {
  /** Operation names by `METHOD /path` (OpenAPI form); missing ones are named after their summary. */
  operationNames?: Readonly<Record<string, string>>;
  /** `METHOD /path` of operations whose request body may be left out (every field has a default). */
  optionalBodies?: ReadonlySet<string>;
  /** The `security` of an operation at `path`; none: anyone may call it. */
  securityOf?: (path: string) => Json[] | undefined;
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** FastAPI's operation id for `name` at `path` (OpenAPI form, `{param}`) with `method`. */
export function operationId(name: string, path: string, method: string): string {
  const base = `${name}${path}`.replace(/\W/g, '_');
  return `${base}_${method.toLowerCase()}`;
}

/** A name for an operation missing from the table: its summary in snake case. */
function nameFromSummary(summary: unknown, method: string, path: string): string {
  const words = String(summary ?? `${method} ${path}`)
    .replace(/\(.*$/, '')
    .toLowerCase()
    .match(/[a-z0-9]+/g);
  return (words ?? [method]).join('_');
}

/**
 * Completes every operation of `paths`: its `operationId` and `security` (unless its route schema gave them),
 * and its parameters (and bodies) with defaults marked optional (a client may leave them out; the server fills
 * the defaults in).
 */
export function completeOperations(paths: Record<string, Record<string, Json>>, rules: OperationRules = {}): void {
  for (const [path, item] of Object.entries(paths)) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const key = `${method.toUpperCase()} ${path}`;
      if (typeof operation.operationId !== 'string') {
        const name = rules.operationNames?.[key] ?? nameFromSummary(operation.summary, method, path);
        operation.operationId = operationId(name, path, method);
      }
      const body = operation.requestBody as Json | undefined;
      if (body && rules.optionalBodies?.has(key)) body.required = false;
      const security = rules.securityOf?.(path);
      if (security && operation.security === undefined) operation.security = security;
      for (const parameter of (operation.parameters ?? []) as Json[]) {
        const schema = parameter.schema as Json | undefined;
        if (parameter.in !== 'path' && schema && 'default' in schema) parameter.required = false;
      }
    }
  }
}
