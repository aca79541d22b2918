/**
 * @bosun/protocol: the wire model of the agent server. Each shape is written once as a schema that gives its
 * TypeScript type, its runtime validation and its JSON Schema (2020-12, as used by the OpenAPI document).
 */
export * from './api/bash.ts';
export * from './api/control.ts';
export * from './api/conversation.ts';
export * from './api/secret-source.ts';
export * from './api/conversation-actions.ts';
export * from './api/event-socket.ts';
export * from './api/files.ts';
export * from './api/git.ts';
export * from './api/hooks.ts';
export * from './api/llm.ts';
export * from './api/marketplaces.ts';
export * from './api/mcp.ts';
export * from './api/metrics.ts';
export * from './api/plugins.ts';
export * from './api/skills.ts';
export * from './api/stream-frame.ts';
export { isStreamFrame } from './api/stream-frame-guard.ts';
export * from './app/index.ts';
export * from './content.ts';
export * from './errors.ts';
export * from './events/index.ts';
export { type Named, namedSchema, nullable, ref, strictObject, stringEnum, withDefault } from './schema/builders.ts';
export { agentServerSchemas, openApiComponents, protocolJsonSchema, protocolSchemas } from './registry.ts';
export { withRefPrefix } from './schema/ref-prefix.ts';
export * from './tools/index.ts';
export { type LazyAjv, lazyProtocolAjv, newProtocolAjv, protocolAjv, validatorFor } from './validation/ajv.ts';
export { toValidationErrors } from './validation/errors.ts';
export * from './validation/parse.ts';
