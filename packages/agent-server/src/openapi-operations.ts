/**
 * What the OpenAPI document says of each operation beyond its route schema: its `operationId` and who may call
 * it. Ids are made as FastAPI makes them (`<name><path with non-word characters as _>_<method>`) from the
 * names below, so an operation OpenHands' agent server has gets the very id it has there, and clients generated
 * for one call the other unchanged.
 */

type Json = Record<string, unknown>;

/** Operation names by `METHOD /path`: OpenHands' where it has the operation, else one in the same style. */
const OPERATION_NAMES: Record<string, string> = {
  'GET /': 'get_server_info',
  'GET /alive': 'alive',
  'GET /health': 'health',
  'GET /ready': 'ready',
  'GET /server_info': 'get_server_info',
  'GET /api/conversations/{conversation_id}/events/search': 'search_conversation_events',
  'GET /api/conversations/{conversation_id}/events/count': 'count_conversation_events',
  'GET /api/conversations/{conversation_id}/events/{event_id}': 'get_conversation_event',
  'GET /api/conversations/{conversation_id}/events': 'batch_get_conversation_events',
  'POST /api/conversations/{conversation_id}/events': 'send_message',
  'POST /api/conversations/{conversation_id}/events/batch': 'batch_get_conversation_events',
  'POST /api/conversations/{conversation_id}/events/respond_to_confirmation': 'respond_to_confirmation',
  'GET /api/conversations/search': 'search_conversations',
  'GET /api/conversations/count': 'count_conversations',
  'GET /api/conversations/{conversation_id}': 'get_conversation',
  'DELETE /api/conversations/{conversation_id}': 'delete_conversation',
  'PATCH /api/conversations/{conversation_id}': 'update_conversation',
  'GET /api/conversations': 'batch_get_conversations',
  'POST /api/conversations': 'start_conversation',
  'POST /api/conversations/{conversation_id}/pause': 'pause_conversation',
  'POST /api/conversations/{conversation_id}/run': 'run_conversation',
  'POST /api/conversations/{conversation_id}/interrupt': 'interrupt_conversation',
  'POST /api/conversations/{conversation_id}/fork': 'fork_conversation',
  'POST /api/conversations/{conversation_id}/switch_llm': 'switch_conversation_llm',
  'POST /api/conversations/{conversation_id}/load_plugin': 'load_conversation_plugin',
  'GET /api/conversations/{conversation_id}/agent_final_response': 'get_agent_final_response',
  'POST /api/conversations/{conversation_id}/secrets': 'update_conversation_secrets',
  'POST /api/conversations/{conversation_id}/confirmation_policy': 'set_conversation_confirmation_policy',
  'POST /api/conversations/{conversation_id}/security_analyzer': 'set_conversation_security_analyzer',
  'POST /api/conversations/{conversation_id}/condense': 'condense_conversation',
  'GET /api/conversations/{conversation_id}/recordings': 'list_recordings',
  'GET /api/conversations/{conversation_id}/recordings/{file_name}': 'download_recording',
  'GET /api/tools/': 'list_available_tools',
  'POST /api/skills': 'get_skills',
  'GET /v1/models': 'list_models',
};

/** Operations whose request body may be left out (every field has a default). */
const OPTIONAL_BODIES = new Set(['POST /api/conversations/{conversation_id}/fork']);

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** The `securitySchemes` of the document: the session key, as a header (and as a bearer token on `/v1`). */
export const SECURITY_SCHEMES = {
  SessionApiKey: {
    type: 'apiKey',
    in: 'header',
    name: 'X-Session-API-Key',
    description: 'One of the session keys the server was started with; not needed when it has none.',
  },
  SessionBearer: {
    type: 'http',
    scheme: 'bearer',
    description: 'A session key as `Authorization: Bearer <key>` (the OpenAI-compatible routes under `/v1`).',
  },
};

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

/** Who may call an operation at `path`: nobody needs a key outside `/api` and `/v1`. */
function securityOf(path: string): Json[] | undefined {
  if (path.startsWith('/api/')) return [{ SessionApiKey: [] }];
  if (path.startsWith('/v1/')) return [{ SessionApiKey: [] }, { SessionBearer: [] }];
  return undefined;
}

/**
 * Completes every operation of `paths`: its `operationId`, its `security`, and its parameters (and bodies) with
 * defaults marked optional (a client may leave them out; the server fills the defaults in).
 */
export function completeOperations(paths: Record<string, Record<string, Json>>): void {
  for (const [path, item] of Object.entries(paths)) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const name =
        OPERATION_NAMES[`${method.toUpperCase()} ${path}`] ?? nameFromSummary(operation.summary, method, path);
      operation.operationId = operationId(name, path, method);
      const body = operation.requestBody as Json | undefined;
      if (body && OPTIONAL_BODIES.has(`${method.toUpperCase()} ${path}`)) body.required = false;
      const security = securityOf(path);
      if (security) operation.security = security;
      for (const parameter of (operation.parameters ?? []) as Json[]) {
        const schema = parameter.schema as Json | undefined;
        if (parameter.in !== 'path' && schema && 'default' in schema) parameter.required = false;
      }
    }
  }
}
