import type { AppContext, ServerRoutes } from '../../context.ts';
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

/** The same over the server's services; a server without a database has no such routes. */
export const eventsApiOfServer: ServerRoutes = (api, context: AppContext) => {
  const { services } = context;
  if (!services) return;
  const { repositories, sandboxes, events } = services;
  eventsApi({ conversations: repositories.conversations, sandboxes, events })(api, context);
};

export const eventSocketOfServer: ServerRoutes = (app, context: AppContext) => {
  const { services } = context;
  if (!services) return;
  const { repositories, sandboxes, events } = services;
  const identity = { apiKeys: repositories.apiKeys, sessions: repositories.sessions };
  eventSocketRoutes({ identity, conversations: repositories.conversations, sandboxes, events })(app, context);
};
