import { readFileSync } from 'node:fs';
import { agentServerSchemas, protocolSchemas } from '@bosun/protocol';
import { beforeAll, describe, expect, it } from 'vitest';
import { EVENT_KINDS } from '../../protocol/test/fixtures/kinds.ts';
import { call } from './support/http.ts';
import { testServerPerFile } from './support/shared-server.ts';

type Json = Record<string, unknown>;

// With session keys: the document and the docs page stay public.
const server = testServerPerFile({ sessionApiKeys: ['k1'] });
let doc: Json;
beforeAll(async () => {
  const reply = await call<Json>(server.url, '/openapi.json');
  expect(reply.status).toBe(200);
  doc = reply.body;
});

const OPENHANDS = JSON.parse(
  readFileSync(new URL('./fixtures/openhands-operations.json', import.meta.url), 'utf8'),
) as {
  operations: { method: string; path: string; operationId: string }[];
};

/** Every operation of the document, with its method and path. */
function operations(): { method: string; path: string; operation: Json }[] {
  return Object.entries(paths()).flatMap(([path, item]) =>
    Object.entries(item).map(([method, operation]) => ({ method: method.toUpperCase(), path, operation })),
  );
}

const schemas = () => (doc.components as { schemas: Record<string, Json> }).schemas;
const paths = () => doc.paths as Record<string, Record<string, Json>>;

/** Every `$ref` in `value`, with where it is. */
function collectRefs(value: unknown, at: string, out: { ref: string; at: string }[] = []): typeof out {
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) collectRefs(item, `${at}/${i}`, out);
  } else if (value && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) {
      if (key === '$ref') out.push({ ref: String(child), at });
      else collectRefs(child, `${at}/${key}`, out);
    }
  }
  return out;
}

/** The value a local JSON pointer (`#/a/b`) names in the document, or undefined. */
function resolvePointer(ref: string): unknown {
  if (!ref.startsWith('#/')) return undefined;
  let node: unknown = doc;
  for (const raw of ref.slice(2).split('/')) {
    const key = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    if (!node || typeof node !== 'object' || !(key in node)) return undefined;
    node = (node as Json)[key];
  }
  return node;
}

describe('the OpenAPI document', () => {
  it('is OpenAPI 3.1.0 describing the "Agent Server" 0.1.0', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info).toMatchObject({ title: 'Agent Server', version: '0.1.0' });
  });

  it("holds the agent server's shapes and none of the app server's", () => {
    const components = Object.keys((doc.components as { schemas: Json }).schemas);
    expect(components).toEqual(expect.arrayContaining([...agentServerSchemas.keys()]));
    const appOnly = [...protocolSchemas.keys()].filter((id) => !agentServerSchemas.has(id));
    expect(appOnly).toContain('CustomSecretCreate');
    for (const id of appOnly) expect(components).not.toContain(id);
  });

  it('lists every REST route, and neither the socket nor itself', () => {
    const expected: Record<string, string[]> = {
      '/alive': ['get'],
      '/health': ['get'],
      '/ready': ['get'],
      '/server_info': ['get'],
      '/': ['get'],
      '/api/conversations': ['get', 'post'],
      '/api/conversations/search': ['get'],
      '/api/conversations/count': ['get'],
      '/api/conversations/{conversation_id}': ['delete', 'get', 'patch'],
      '/api/conversations/{conversation_id}/run': ['post'],
      '/api/conversations/{conversation_id}/pause': ['post'],
      '/api/conversations/{conversation_id}/condense': ['post'],
      '/api/conversations/{conversation_id}/events': ['get', 'post'],
      '/api/conversations/{conversation_id}/events/batch': ['post'],
      '/api/conversations/{conversation_id}/events/search': ['get'],
      '/api/conversations/{conversation_id}/events/count': ['get'],
      '/api/conversations/{conversation_id}/events/{event_id}': ['get'],
      '/api/tools/': ['get'],
      '/api/conversations/{conversation_id}/recordings': ['get'],
      '/api/conversations/{conversation_id}/recordings/{file_name}': ['get'],
    };
    for (const [path, methods] of Object.entries(expected)) {
      expect(paths()[path], path).toBeDefined();
      expect(Object.keys(paths()[path] ?? {}).sort(), path).toEqual(methods);
    }
    const listed = Object.keys(paths());
    expect(listed.some((p) => p.startsWith('/sockets'))).toBe(false);
    expect(listed).not.toContain('/openapi.json');
  });

  it('describes Event as a oneOf of all 14 kinds with a discriminator mapping on "kind"', () => {
    const event = schemas().Event as Json;
    expect(event).toBeDefined();
    const oneOf = event.oneOf as { $ref: string }[];
    expect(oneOf).toHaveLength(14);
    expect(oneOf.map((o) => o.$ref).sort()).toEqual(EVENT_KINDS.map((k) => `#/components/schemas/${k}`).sort());
    const discriminator = event.discriminator as { propertyName: string; mapping: Record<string, string> };
    expect(discriminator.propertyName).toBe('kind');
    expect(Object.keys(discriminator.mapping).sort()).toEqual([...EVENT_KINDS].sort());
    for (const kind of EVENT_KINDS) {
      expect(discriminator.mapping[kind]).toBe(`#/components/schemas/${kind}`);
      const shape = schemas()[kind] as { properties: Record<string, Json>; required?: string[] };
      expect(shape, kind).toBeDefined();
      // Each variant carries its own tag.
      const tag = shape.properties.kind as { const?: string; enum?: string[] };
      expect(tag.const ?? tag.enum?.[0], kind).toBe(kind);
    }
  });

  it('resolves every $ref in the whole document to an existing component', () => {
    const refs = collectRefs(doc, '#');
    expect(refs.length).toBeGreaterThan(50);
    const dangling = refs.filter(({ ref }) => resolvePointer(ref) === undefined);
    expect(dangling).toEqual([]);
    for (const { ref } of refs) expect(ref).toMatch(/^#\/components\/schemas\/[^/]+$/);
    // Discriminator mappings point at components too.
    const mappings: string[] = [];
    const walk = (value: unknown) => {
      if (Array.isArray(value)) {
        for (const item of value) walk(item);
      } else if (value && typeof value === 'object') {
        for (const [key, child] of Object.entries(value)) {
          if (key === 'mapping' && child && typeof child === 'object')
            mappings.push(...Object.values(child as Json).map(String));
          else walk(child);
        }
      }
    };
    walk(doc);
    expect(mappings.length).toBeGreaterThanOrEqual(14);
    expect(mappings.filter((ref) => resolvePointer(ref) === undefined)).toEqual([]);
  });

  it('documents the batch get as a GET with a JSON request body of at most 1000 ids, and its POST twin', () => {
    const events = paths()['/api/conversations/{conversation_id}/events'] as Record<string, Json>;
    const get = events.get as { requestBody: { content: Record<string, { schema: Json }> }; responses: Json };
    expect(get.requestBody).toBeDefined();
    const schema = get.requestBody.content['application/json']?.schema as Json;
    expect(schema).toMatchObject({ type: 'array', items: { type: 'string' }, maxItems: 1000 });
    expect(Object.keys(get.responses)).toEqual(expect.arrayContaining(['200', '404', '422']));
    const batch = paths()['/api/conversations/{conversation_id}/events/batch']?.post as {
      requestBody: { content: Record<string, { schema: Json }> };
    };
    expect(batch.requestBody.content['application/json']?.schema).toEqual(schema);
    // POST on the same path sends a message.
    const post = events.post as { requestBody: { content: Record<string, { schema: Json }> } };
    expect(post.requestBody.content['application/json']?.schema).toEqual({
      $ref: '#/components/schemas/SendMessageRequest',
    });
  });

  it('documents the 422 body as HTTPValidationError and path ids as UUIDs', () => {
    const get = paths()['/api/conversations/{conversation_id}']?.get as {
      parameters: { in: string; name: string; schema: Json }[];
      responses: Record<string, { content?: Record<string, { schema: Json }> }>;
    };
    expect(get.parameters).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          in: 'path',
          name: 'conversation_id',
          schema: expect.objectContaining({ format: 'uuid' }),
        }),
      ]),
    );
    expect(get.responses['422']?.content?.['application/json']?.schema).toEqual({
      $ref: '#/components/schemas/HTTPValidationError',
    });
    expect(get.responses['200']?.content?.['application/json']?.schema).toEqual({
      $ref: '#/components/schemas/ConversationInfo',
    });
    expect(schemas().HTTPValidationError).toBeDefined();
  });

  it('documents request bodies with the protocol shapes', () => {
    const create = paths()['/api/conversations']?.post as {
      requestBody: { content: Record<string, { schema: Json }> };
    };
    // The shape itself, or the shape with constraints of this server added.
    expect(JSON.stringify(create.requestBody.content['application/json']?.schema)).toContain(
      '"$ref":"#/components/schemas/StartConversationRequest"',
    );
    const start = schemas().StartConversationRequest as { required: string[]; additionalProperties: unknown };
    expect(start.required).toEqual(expect.arrayContaining(['workspace']));
    expect(start.additionalProperties).toBe(false);
  });

  it("gives every operation a summary and a unique operationId, OpenHands' own where it has the operation", () => {
    const ids = operations().map(({ operation }) => operation.operationId);
    for (const { method, path, operation } of operations()) {
      expect(operation.summary, `${method} ${path}`).toEqual(expect.any(String));
      expect(operation.operationId, `${method} ${path}`).toMatch(/^[a-z0-9_]+$/);
    }
    expect(new Set(ids).size).toBe(ids.length);
    const shared = OPENHANDS.operations.filter((o) => paths()[o.path]?.[o.method.toLowerCase()]);
    expect(shared.length).toBeGreaterThan(20);
    for (const o of shared) expect(paths()[o.path]?.[o.method.toLowerCase()]?.operationId).toBe(o.operationId);
  });

  it('marks the query parameters that have a default (limit, sort_order) optional', () => {
    const searches = [
      '/api/conversations/search',
      '/api/conversations/{conversation_id}/events/search',
      '/api/bash/bash_events/search',
    ];
    for (const path of searches) {
      const parameters = paths()[path]?.get?.parameters as { name: string; required?: boolean }[];
      for (const name of ['limit', 'sort_order']) {
        expect(parameters.find((p) => p.name === name)?.required, `${path} ${name}`).toBe(false);
      }
    }
  });

  it("keeps a named shape's default beside its $ref in a parameter (as FastAPI writes it)", () => {
    const parameters = paths()['/api/bash/bash_events/search']?.get?.parameters as { name: string; schema: Json }[];
    expect(parameters.find((p) => p.name === 'sort_order')?.schema).toEqual({
      $ref: '#/components/schemas/BashEventSortOrder',
      default: 'TIMESTAMP',
    });
  });

  it('marks the body of fork optional (all its fields have defaults)', () => {
    const fork = paths()['/api/conversations/{conversation_id}/fork']?.post as { requestBody: { required: boolean } };
    expect(fork.requestBody.required).toBe(false);
  });

  it('declares the X-Session-API-Key scheme and requires it on every /api operation only', () => {
    const components = doc.components as { securitySchemes: Record<string, Json> };
    expect(components.securitySchemes.SessionApiKey).toMatchObject({
      type: 'apiKey',
      in: 'header',
      name: 'X-Session-API-Key',
    });
    for (const { method, path, operation } of operations()) {
      if (path.startsWith('/api/')) expect(operation.security, `${method} ${path}`).toEqual([{ SessionApiKey: [] }]);
      else if (!path.startsWith('/v1/')) expect(operation.security, `${method} ${path}`).toBeUndefined();
    }
  });

  it('serves the interactive docs at /docs without a key', async () => {
    const reply = await call(server.url, '/docs');
    expect(reply.status).toBe(200);
    expect(reply.text).toMatch(/swagger/i);
  });
});
