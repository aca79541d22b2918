import type { ApiRoutes } from '../../http/api-routes.ts';
import { type ConversationEventRouteDeps, conversationEventRoutes } from './conversation-events.ts';
import { type EventSocketDeps, eventSocketRoutes } from './event-socket.ts';
import { type EventWebhookDeps, eventWebhookRoutes } from './event-webhooks.ts';

export type EventRouteDeps = Omit<ConversationEventRouteDeps, 'events'> & EventWebhookDeps;

/** The `/api/v1` routes of conversation events: the reads from the app's store, and the sandboxes' webhook. */
export function eventsApi(deps: EventRouteDeps): ApiRoutes {
  return (api, context) => {
    conversationEventRoutes({ conversations: deps.conversations, events: deps.events.repository })(api, context);
    eventWebhookRoutes(deps)(api, context);
  };
}

/** `/sockets/events/{id}` (outside `/api/v1`): the live events of a conversation. */
export function eventSocket(deps: EventSocketDeps): ApiRoutes {
  return eventSocketRoutes(deps);
}
