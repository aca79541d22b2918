/** The aggregator of the wire model: every named shape of content, errors, events, tools and api, and the documents built from them. */
import * as bashApi from './api/bash.ts';
import * as controlApi from './api/control.ts';
import * as conversationActionsApi from './api/conversation-actions.ts';
import * as conversationApi from './api/conversation.ts';
import * as gitApi from './api/git.ts';
import * as hooksApi from './api/hooks.ts';
import * as llmApi from './api/llm.ts';
import * as marketplacesApi from './api/marketplaces.ts';
import * as mcpApi from './api/mcp.ts';
import * as metricsApi from './api/metrics.ts';
import * as pluginsApi from './api/plugins.ts';
import * as skillsApi from './api/skills.ts';
import * as streamFrameApi from './api/stream-frame.ts';
import * as appApi from './app/index.ts';
import * as content from './content.ts';
import * as errors from './errors.ts';
import * as events from './events/index.ts';
import type { Named } from './schema/builders.ts';
import { type Json, withRefPrefix } from './schema/ref-prefix.ts';
import { toolNamedShapes } from './tools/index.ts';

/** The agent server's named shapes, by `$id`: what its OpenAPI document holds. */
export const agentServerSchemas: ReadonlyMap<string, Named> = collectNamed([
  content,
  errors,
  toolNamedShapes(),
  events,
  llmApi,
  controlApi,
  conversationApi,
  conversationActionsApi,
  hooksApi,
  marketplacesApi,
  mcpApi,
  metricsApi,
  pluginsApi,
  skillsApi,
  streamFrameApi,
  bashApi,
  gitApi,
]);

/** Every named shape of the wire model, by `$id`: the agent server's and the app server's. */
export const protocolSchemas: ReadonlyMap<string, Named> = new Map([...agentServerSchemas, ...collectNamed([appApi])]);

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
