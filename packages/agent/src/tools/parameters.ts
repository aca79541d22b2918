import { protocolSchemas } from '@bosun/protocol';

/**
 * The JSON Schema an LLM gets for a tool's arguments: the Action's schema with references inlined and `kind`
 * removed (the tool name already says which action it is).
 */
export function llmParameters(actionKind: string): Record<string, unknown> {
  const schema = protocolSchemas.get(actionKind) as { properties?: Record<string, unknown>; required?: string[] };
  if (!schema) throw new Error(`unknown action kind ${actionKind}`);
  const { kind: _kind, ...properties } = schema.properties ?? {};
  const required = (schema.required ?? []).filter((name) => name !== 'kind');
  return {
    type: 'object',
    properties: inline(properties) as Record<string, unknown>,
    ...(required.length ? { required } : {}),
    additionalProperties: false,
  };
}

function inline(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(inline);
  if (!value || typeof value !== 'object') return value;
  const object = value as Record<string, unknown>;
  if (typeof object.$ref === 'string') {
    const { $id: _id, ...target } = protocolSchemas.get(object.$ref) as Record<string, unknown>;
    return inline(target);
  }
  return Object.fromEntries(Object.entries(object).map(([key, child]) => [key, inline(child)]));
}
