/**
 * The TypeScript module that types a client by a server's OpenAPI document: for each path and method, what the
 * operation takes (path parameters, query, body) and what it answers. A shape the document names is the
 * protocol's type of that name, so the client and the server share one definition of it.
 */
import { defaultedProperties } from './defaulted-properties.ts';

type Json = { [key: string]: unknown };
interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  schema?: Json;
}
interface OperationObject {
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content?: Record<string, { schema?: Json }> };
  responses?: Record<string, { content?: Record<string, { schema?: Json }> }>;
}
export interface OpenApiDocument {
  paths: Record<string, Record<string, OperationObject>>;
  components?: { schemas?: Record<string, Json> };
}

export interface ApiModuleOptions {
  /** The exported interface's name. */
  name: string;
  /** Its doc comment. */
  description: string;
  /** How the module is made again (said in its first line). */
  command: string;
  /** The type for some named shapes, when it is not the protocol's type of that name (e.g. a narrower one). */
  namedTypes?: Record<string, string>;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;
const COMPONENT = '#/components/schemas/';

/** The module's text; throws on a `$ref` that names no component of the document (a broken document). */
export function apiModuleOf(document: OpenApiDocument, options: ApiModuleOptions): string {
  const components = document.components?.schemas ?? {};
  const type = (schema: unknown): string => typeOf(schema, components, options.namedTypes ?? {});
  const paths: string[] = [];
  for (const [path, item] of Object.entries(document.paths).sort(([a], [b]) => (a < b ? -1 : 1))) {
    const methods: string[] = [];
    for (const method of METHODS) {
      const operation = item[method];
      if (operation) methods.push(`    ${method}: ${operationType(operation, type, components)};`);
    }
    if (methods.length > 0) paths.push(`  '${path}': {\n${methods.join('\n')}\n  };`);
  }
  return [
    `// Made by \`${options.command}\` from the server's OpenAPI document: do not edit.`,
    "import type * as P from '@bosun/protocol';",
    "import type { WithDefaults } from '../request-defaults.ts';",
    '',
    `/** ${options.description} */`,
    `export interface ${options.name} {`,
    ...paths,
    '}',
    '',
  ].join('\n');
}

function operationType(
  operation: OperationObject,
  type: (schema: unknown) => string,
  components: Record<string, Json>,
): string {
  const parts: string[] = [];
  const parameters = operation.parameters ?? [];
  for (const place of ['path', 'query'] as const) {
    const taken = parameters.filter((p) => p.in === place);
    if (taken.length === 0) continue;
    const required = (p: Parameter) => place === 'path' || p.required === true;
    const fields = taken.map((p) => `${key(p.name)}${required(p) ? '' : '?'}: ${type(p.schema)}`);
    const optional = taken.some(required) ? '' : '?';
    parts.push(`${place === 'path' ? 'params' : `query${optional}`}: { ${fields.join('; ')} }`);
  }
  const body = operation.requestBody;
  if (body) {
    const schema = body.content?.['application/json']?.schema;
    const defaulted = defaultedProperties(schema, components).map((name) => `'${name}'`);
    const shape = schema ? type(schema) : 'unknown';
    const sent = defaulted.length > 0 ? `WithDefaults<${shape}, ${defaulted.join(' | ')}>` : shape;
    parts.push(`body${body.required === false ? '?' : ''}: ${sent}`);
  }
  parts.push(`answer: ${answerType(operation, type)}`);
  return `{ ${parts.join('; ')} }`;
}

/** What a success answers: the JSON of its 2xx responses, text for a text answer, `undefined` for none. */
function answerType(operation: OperationObject, type: (schema: unknown) => string): string {
  const answers = new Set<string>();
  for (const [status, response] of Object.entries(operation.responses ?? {})) {
    if (!status.startsWith('2')) continue;
    const content = response.content ?? {};
    const json = content['application/json'];
    if (json) answers.add(type(json.schema));
    else if (Object.keys(content).some((media) => media.startsWith('text/'))) answers.add('string');
    else if (Object.keys(content).length > 0) answers.add('unknown');
    else answers.add('undefined');
  }
  return answers.size === 0 ? 'unknown' : [...answers].join(' | ');
}

function typeOf(schema: unknown, components: Record<string, Json>, named: Record<string, string>): string {
  if (schema === true || schema === undefined) return 'unknown';
  if (schema === false) return 'never';
  const node = schema as Json;
  const recurse = (child: unknown) => typeOf(child, components, named);
  if (typeof node.$ref === 'string') {
    const name = node.$ref.startsWith(COMPONENT) ? node.$ref.slice(COMPONENT.length) : undefined;
    if (!name || !(name in components)) throw new Error(`$ref ${node.$ref} names no component of the document`);
    return named[name] ?? `P.${name}`;
  }
  if ('const' in node) return JSON.stringify(node.const);
  if (Array.isArray(node.enum)) return node.enum.map((value) => JSON.stringify(value)).join(' | ');
  for (const union of ['anyOf', 'oneOf'] as const) {
    if (Array.isArray(node[union])) return `(${(node[union] as unknown[]).map(recurse).join(' | ')})`;
  }
  if (Array.isArray(node.allOf)) return `(${node.allOf.map(recurse).join(' & ')})`;
  if (Array.isArray(node.type)) return `(${node.type.map((one) => recurse({ ...node, type: one })).join(' | ')})`;
  switch (node.type) {
    case 'string':
      return 'string';
    case 'integer':
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'null':
      return 'null';
    case 'array':
      return `${wrapped(recurse(node.items))}[]`;
    case 'object':
      return objectType(node, recurse);
    default:
      return node.properties ? objectType(node, recurse) : 'unknown';
  }
}

function objectType(node: Json, recurse: (child: unknown) => string): string {
  const required = new Set((node.required as string[] | undefined) ?? []);
  const fields = Object.entries((node.properties as Record<string, unknown> | undefined) ?? {}).map(
    ([name, property]) => `${key(name)}${required.has(name) ? '' : '?'}: ${recurse(property)}`,
  );
  const extra = node.additionalProperties;
  if (fields.length === 0) {
    if (extra === false) return 'Record<string, never>';
    return `Record<string, ${extra === undefined || extra === true ? 'unknown' : recurse(extra)}>`;
  }
  // Named fields beside any others: the others are whatever they are (an index type would have to cover both).
  if (extra !== undefined && extra !== false) fields.push('[key: string]: unknown');
  return `{ ${fields.join('; ')} }`;
}

const wrapped = (type: string) => (/^[\w.]+$/.test(type) || type.startsWith('(') ? type : `(${type})`);
const key = (name: string) => (/^[A-Za-z_$][\w$]*$/.test(name) ? name : `'${name}'`);
