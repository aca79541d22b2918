import { HttpError, InputError, NotFoundError } from '@bosun/http';
import { Type } from '@sinclair/typebox';
import type { Repositories } from '../../data/index.ts';
import type { ApiRoutes } from '../../http/api-routes.ts';
import { shape } from '../../http/replies.ts';
import { routeOptions } from '../../http/route-options.ts';
import { type Sandbox, type Sandboxes, agentStillHas } from '../../sandboxes/index.ts';
import { sandboxOnly } from '../../sandboxes/routes/sandbox-caller.ts';
import { conversationIdOf } from '../conversation-ids.ts';
import { type ConversationEvents, agentSourceOf, validateEvents } from '../index.ts';
import { ConversationIdParams } from './conversation-events.ts';

const route = routeOptions('Webhooks');

export interface EventWebhookDeps {
  conversations: Pick<Repositories['conversations'], 'get'>;
  sandboxes: Sandboxes;
  events: ConversationEvents;
}

/**
 * `POST /api/v1/webhooks/events/{conversation_id}`: a sandbox's agent server posts the conversation's events, with
 * its session key (`X-Session-API-Key`). A sandbox writes only for conversations of its owner that it holds; a
 * conversation the app has no row of yet (started on the agent server directly) is recorded for the sandbox's
 * owner. The answer comes once every event is stored: an invalid one (a 422 naming its index) stores none.
 */
export function eventWebhookRoutes(deps: EventWebhookDeps): ApiRoutes {
  return (app) => {
    app.post<{ Params: ConversationIdParams; Body: unknown[] }>(
      '/webhooks/events/:conversation_id',
      {
        // Not an API key: the sandbox's session key, checked here before anything else is read.
        // Events hold what tools printed, U+0000 included: they are stored as JSON text, which escapes it.
        config: { public: true, nulInBody: true },
        ...route('A sandbox’s agent server posts a conversation’s events', {
          params: ConversationIdParams,
          body: Type.Array(shape('Event')),
          response: { 200: 'SuccessResponse', 403: 'HTTPError' },
        }),
        onRequest: sandboxOnly(deps.sandboxes),
      },
      async (request) => {
        const sandbox = request.sandbox as Sandbox;
        const checked = validateEvents(request.body, ['body']);
        if (!checked.ok) throw new InputError(checked.errors);
        const id = conversationIdOf(request.params.conversation_id) as string;
        const owner = await conversationOfSandbox(deps, sandbox, id);
        if (owner === undefined) return { success: true };
        const source = agentSourceOf(sandbox);
        await deps.events.intake.receive({ id, userId: owner }, source, checked.events);
        return { success: true };
      },
    );
  };
}

/**
 * The owner of conversation `id`, which `sandbox` may write: its owner's, held by it (or new, then recorded);
 * undefined when the app has no row of it and the agent server no longer has it either (deleted meanwhile).
 */
async function conversationOfSandbox(
  deps: EventWebhookDeps,
  sandbox: Sandbox,
  id: string,
): Promise<string | undefined> {
  let conversation = await deps.conversations.get(sandbox.ownerId, id);
  if (!conversation) {
    if ((await deps.events.repository.ownerOf(id)) !== undefined)
      throw new NotFoundError(`Conversation not found: ${id}`);
    // Events still in flight when the app deleted the conversation must not bring it back.
    if (!(await agentStillHas(sandbox, id))) return undefined;
    await deps.events.repository.adoptConversation(id, sandbox.ownerId, sandbox.id);
    conversation = await deps.conversations.get(sandbox.ownerId, id);
    if (!conversation) throw new NotFoundError(`Conversation not found: ${id}`);
  }
  if (conversation.sandbox_id !== sandbox.id) {
    throw new HttpError(403, 'This sandbox does not hold the conversation');
  }
  return conversation.user_id;
}
