import * as bashApi from '../api/bash.ts';
import * as controlApi from '../api/control.ts';
import * as conversationActionsApi from '../api/conversation-actions.ts';
import * as conversationApi from '../api/conversation.ts';
import * as gitApi from '../api/git.ts';
import * as hooksApi from '../api/hooks.ts';
import * as llmApi from '../api/llm.ts';
import * as marketplacesApi from '../api/marketplaces.ts';
import * as mcpApi from '../api/mcp.ts';
import * as metricsApi from '../api/metrics.ts';
import * as pluginsApi from '../api/plugins.ts';
import * as skillsApi from '../api/skills.ts';
import * as content from '../content.ts';
import * as errors from '../errors.ts';
import * as events from '../events/index.ts';
import { toolNamedShapes } from '../tools/index.ts';
import type { Named } from './builders.ts';

/** Every named shape of the wire model, by `$id`. */
export const protocolSchemas: ReadonlyMap<string, Named> = collectNamed([
  content,
  errors,
  toolNamedShapes(),
  events,
  llmApi,
  controlApi,
  conversationApi,
  conversationActionsApi,
  hooksApi,
  bashApi,
  gitApi,
  marketplacesApi,
  mcpApi,
  metricsApi,
  pluginsApi,
  skillsApi,
]);

function collectNamed(modules: object[]): Map<string, Named> {
  const named = new Map<string, Named>();
  for (const module of modules) {
    for (const value of Object.values(module)) {
      if (value && typeof value === 'object' && typeof (value as { $id?: unknown }).$id === 'string') {
        named.set((value as Named).$id, value as Named);
      }
    }
  }
  return named;
}

type Json = unknown;

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

/** The shapes as OpenAPI 3.1 components (`components.schemas`). */
export function openApiComponents(): Record<string, Json> {
  const components: Record<string, Json> = {};
  for (const [id, schema] of protocolSchemas) components[id] = withRefPrefix(schema, '#/components/schemas/');
  return components;
}

/** One JSON Schema 2020-12 document holding every shape under `$defs`, with `Event` as its root. */
export function protocolJsonSchema(): Record<string, Json> {
  const defs: Record<string, Json> = {};
  for (const [id, schema] of protocolSchemas) defs[id] = withRefPrefix(schema, '#/$defs/');
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    title: 'Bosun agent server events',
    $ref: '#/$defs/Event',
    $defs: defs,
  };
}
