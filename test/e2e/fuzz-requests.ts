import { request as httpRequest } from 'node:http';
import fc from 'fast-check';
import { type Schema, mutated, oddValue, validValue } from './schema-arbitraries.ts';

/** One operation of the OpenAPI document. */
export interface Operation {
  method: string;
  /** As documented: `/api/conversations/{conversation_id}`. */
  path: string;
  parameters: { name: string; in: 'path' | 'query'; schema: Schema }[];
  body?: Schema;
}

export interface FuzzRequest {
  method: string;
  /** Path and query string. */
  url: string;
  headers: Record<string, string>;
  body?: string;
}

/** What the generated requests may point at: ids that exist, and a body sanitizer per operation. */
export interface FuzzContext {
  components: Record<string, Schema>;
  /** Values of path parameters that exist, read when a request is generated (the test may replace them). */
  pathValues: Record<string, string[]>;
  /** Values of query parameters that name what exists (an organization's id), by parameter name; none by default. */
  queryValues?: Record<string, string[]>;
  /** Makes a generated body safe to act on (no commands, no network, no paths outside the test's). */
  sanitize(operation: Operation, body: unknown): unknown;
}

export function operationsOf(document: Record<string, unknown>): Operation[] {
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(document.paths as Record<string, Record<string, Schema>>)) {
    for (const [method, operation] of Object.entries(item)) {
      const body = (operation.requestBody as { content?: Record<string, { schema: Schema }> } | undefined)?.content?.[
        'application/json'
      ]?.schema;
      operations.push({
        method: method.toUpperCase(),
        path,
        parameters: (operation.parameters ?? []) as Operation['parameters'],
        ...(body ? { body } : {}),
      });
    }
  }
  return operations;
}

const ODD_SEGMENTS = ['%ff%fe', '%', '%zz', '..', '.', 'a%2Fb', '%00', 'x'.repeat(150), '%20', '-1', 'null'];
const ODD_QUERY_VALUES = ['', 'Infinity', '-Infinity', 'NaN', '1e400', '-1', '0', '0x10', '5.5', '%ff', '[]', 'true'];
const EXTRA_QUERY = ['X-Session-API-Key=fuzz-key', 'unknown=1', 'limit=5&limit=6', '%ff=1', 'a=%ff', 'ids=', '&&'];
const RAW_BODIES = ['', '{', 'null', '[]', '"x"', '{"a":', '{"__proto__":{"polluted":true}}', '\u0000', '1e400'];
const CONTENT_TYPES = [
  'text/plain',
  'application/x-www-form-urlencoded',
  'application/json; charset=utf-8',
  'application/vnd.api+json',
  'multipart/form-data; boundary=x',
  ';;',
];

/** Percent-encoded; a lone surrogate (which has no UTF-8) becomes U+FFFD, as a browser would send it. */
const encode = (value: unknown) =>
  encodeURIComponent(
    (typeof value === 'string' ? value : JSON.stringify(value)).replace(/[\ud800-\udfff]/gu, '\ufffd'),
  );

function segment(name: string, schema: Schema, context: FuzzContext): fc.Arbitrary<string> {
  const known = context.pathValues[name] ?? [];
  return fc.oneof(
    ...(known.length ? [{ weight: 6, arbitrary: fc.nat().map((i) => known[i % known.length] as string) }] : []),
    { weight: 2, arbitrary: validValue(schema, context.components).map(encode) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 30 }).map(encode) },
    { weight: 1, arbitrary: fc.constantFrom(...ODD_SEGMENTS) },
  );
}

function queryPart(name: string, schema: Schema, context: FuzzContext): fc.Arbitrary<string> {
  const known = context.queryValues?.[name] ?? [];
  const value = fc.oneof(
    ...(known.length ? [{ weight: 3, arbitrary: fc.nat().map((i) => known[i % known.length] as string) }] : []),
    { weight: 3, arbitrary: validValue(schema, context.components) },
    { weight: 1, arbitrary: fc.constantFrom(...ODD_QUERY_VALUES) },
    { weight: 1, arbitrary: oddValue() },
  );
  return value.map((v) =>
    Array.isArray(v) ? v.map((item) => `${name}=${encode(item)}`).join('&') : `${name}=${encode(v)}`,
  );
}

function bodyOf(operation: Operation, context: FuzzContext): fc.Arbitrary<string | undefined> {
  const raw = fc.oneof(fc.constantFrom(...RAW_BODIES), fc.string({ unit: 'binary', maxLength: 40 }));
  if (!operation.body) {
    return fc.oneof(
      { weight: 6, arbitrary: fc.constant(undefined) },
      { weight: 1, arbitrary: raw },
      { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v)) },
    );
  }
  const valid = validValue(operation.body, context.components);
  const json = (value: unknown) => JSON.stringify(context.sanitize(operation, value)) ?? 'null';
  return fc.oneof(
    { weight: 3, arbitrary: valid.map(json) },
    { weight: 4, arbitrary: valid.chain(mutated).map(json) },
    { weight: 1, arbitrary: raw },
    { weight: 1, arbitrary: fc.constant(undefined) },
  );
}

/** A request for `operation`: its own method mostly, path, query and body filled with valid and invalid values. */
export function requestFor(operation: Operation, context: FuzzContext): fc.Arbitrary<FuzzRequest> {
  const pathParameters = operation.parameters.filter((p) => p.in === 'path');
  const queryParameters = operation.parameters.filter((p) => p.in === 'query');
  return fc
    .record({
      method: fc.oneof(
        { weight: 12, arbitrary: fc.constant(operation.method) },
        { weight: 1, arbitrary: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS') },
      ),
      segments: fc.tuple(...pathParameters.map((p) => segment(p.name, p.schema, context))),
      query: fc.tuple(...queryParameters.map((p) => fc.option(queryPart(p.name, p.schema, context)))),
      // One request in three with an extra query part. Unknown parameters are ignored (as FastAPI does), so such
      // a request still reaches its handler; a repeated or undecodable known one (`limit=5&limit=6`, `ids=`) is
      // checked as any other value.
      extra: fc.oneof({ weight: 2, arbitrary: fc.constant(null) }, fc.constantFrom(...EXTRA_QUERY)),
      body: bodyOf(operation, context),
      contentType: fc.oneof(
        { weight: 8, arbitrary: fc.constant('application/json') },
        { weight: 1, arbitrary: fc.constantFrom(...CONTENT_TYPES) },
        { weight: 1, arbitrary: fc.constant(undefined) },
      ),
    })
    .map(({ method, segments, query, extra, body, contentType }) => {
      let path = operation.path;
      pathParameters.forEach((p, i) => {
        path = path.replace(`{${p.name}}`, segments[i] as string);
      });
      const parts = [...query, extra].filter((part): part is string => typeof part === 'string');
      const headers: Record<string, string> = {};
      if (body !== undefined && contentType !== undefined) headers['content-type'] = contentType;
      return {
        method,
        url: parts.length ? `${path}?${parts.join('&')}` : path,
        headers,
        ...(body !== undefined ? { body } : {}),
      };
    });
}

/** Sends `request` over real HTTP; rejects when no answer came within `timeoutMs`. */
export function send(base: string, request: FuzzRequest, timeoutMs: number): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { ...request.headers };
    if (request.body !== undefined) headers['content-length'] = Buffer.byteLength(request.body);
    const req = httpRequest(`${base}${request.url}`, { method: request.method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        clearTimeout(timer);
        resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') });
      });
      res.on('error', reject);
    });
    const timer = setTimeout(() => {
      req.destroy();
      reject(new Error(`no answer within ${timeoutMs} ms`));
    }, timeoutMs);
    req.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    req.end(request.body);
  });
}

/** What is wrong with an answer: a 5xx, or a 4xx not in the one error shape. Undefined when it is fine. */
export function problemWith(reply: { status: number; text: string }): string | undefined {
  if (reply.status >= 500) return `answered ${reply.status}`;
  if (reply.status < 400) return undefined;
  let body: unknown;
  try {
    body = JSON.parse(reply.text);
  } catch {
    return `a ${reply.status} whose body is not JSON`;
  }
  if (!body || typeof body !== 'object' || Object.keys(body).join() !== 'detail') {
    return `a ${reply.status} whose body is not {"detail": ...}`;
  }
  const detail = (body as { detail: unknown }).detail;
  if (reply.status !== 422)
    return typeof detail === 'string' ? undefined : `a ${reply.status} whose detail is no string`;
  const items = Array.isArray(detail) ? detail : [];
  const wellFormed = (item: Record<string, unknown>) =>
    Object.keys(item).sort().join() === 'loc,msg,type' &&
    Array.isArray(item.loc) &&
    item.loc.every((part) => typeof part === 'string' || typeof part === 'number') &&
    typeof item.msg === 'string' &&
    typeof item.type === 'string';
  return items.length > 0 && items.every(wellFormed)
    ? undefined
    : 'a 422 whose detail is not a list of {loc, msg, type}';
}

/** The request as a reader can replay it (long bodies cut). */
export function describeRequest(request: FuzzRequest): string {
  const body = request.body === undefined ? '' : ` body ${JSON.stringify(request.body.slice(0, 2000))}`;
  return `${request.method} ${request.url} headers ${JSON.stringify(request.headers)}${body}`;
}
