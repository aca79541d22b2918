import { AGENT_SETTINGS_SCHEMA, CONVERSATION_SETTINGS_SCHEMA } from '@bosun/protocol';
import { Type } from '@sinclair/typebox';
import type { ApiRoutes } from '../../http/api-routes.ts';
import { routeOptions } from '../../http/route-options.ts';

const route = routeOptions('Settings');

/**
 * `GET /settings/agent-schema` and `/settings/conversation-schema`: the JSON Schemas `POST /settings` validates
 * `agent_settings_diff` and `conversation_settings_diff` with (the same objects, so the two never disagree).
 */
export const settingsSchemaRoutes: ApiRoutes = (app) => {
  const schemas = [
    ['agent', 'agent_settings_diff', AGENT_SETTINGS_SCHEMA],
    ['conversation', 'conversation_settings_diff', CONVERSATION_SETTINGS_SCHEMA],
  ] as const;
  for (const [name, field, schema] of schemas) {
    const answer = JSON.parse(JSON.stringify(schema)) as Record<string, unknown>;
    app.get(
      `/settings/${name}-schema`,
      route(`The JSON Schema of \`${field}\` (what POST /settings accepts there)`, {
        response: { 200: Type.Object({}, { additionalProperties: true, description: 'A JSON Schema.' }) },
      }),
      async () => answer,
    );
  }
};
