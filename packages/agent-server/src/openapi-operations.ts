/**
 * What the agent server's OpenAPI document says of each operation beyond its route schema: its name (made into
 * an `operationId` as FastAPI does, so an operation OpenHands' agent server has gets the very id it has there)
 * and who may call it.
 */

/** Operation names by `METHOD /path`: OpenHands' where it has the operation, else one in the same style. */
export const OPERATION_NAMES: Record<string, string> = {
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
export const OPTIONAL_BODIES = new Set(['POST /api/conversations/{conversation_id}/fork', 'POST /api/hooks']);

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

/** Who may call an operation at `path`: nobody needs a key outside `/api` and `/v1`. */
export function securityOf(path: string): Record<string, string[]>[] | undefined {
  if (path.startsWith('/api/')) return [{ SessionApiKey: [] }];
  if (path.startsWith('/v1/')) return [{ SessionApiKey: [] }, { SessionBearer: [] }];
  return undefined;
}
