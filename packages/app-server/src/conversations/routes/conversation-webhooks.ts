import { conversationIdPattern } from '@bosun/protocol';
import { Type } from '@sinclair/typebox';
import type { Repositories } from '../../data/index.ts';
import type { ApiRoutes } from '../../http/api-routes.ts';
import { notFound } from '../../http/replies.ts';
import { routeOptions } from '../../http/route-options.ts';
import type { Sandbox, Sandboxes } from '../../sandboxes/index.ts';
import { sandboxOnly } from '../../sandboxes/routes/sandbox-caller.ts';
import { type ConversationReport, keepReport } from '../conversation-reports.ts';

const route = routeOptions('Webhooks');

/** The part of the agent server's ConversationInfo the app reads; the rest (of any agent server version) passes. */
const ConversationReportBody = Type.Object(
  {
    id: Type.String({ pattern: conversationIdPattern }),
    title: Type.Optional(Type.Union([Type.String(), Type.Null()])),
    execution_status: Type.Optional(Type.String({ maxLength: 64 })),
    agent: Type.Optional(Type.Object({ llm: Type.Optional(Type.Object({ model: Type.Optional(Type.String()) })) })),
    metrics: Type.Optional(Type.Union([Type.Object({}), Type.Null()])),
    updated_at: Type.Optional(Type.String({ maxLength: 64 })),
  },
  { description: 'The agent server’s ConversationInfo.' },
);

/**
 * `POST /api/v1/webhooks/conversations`: an agent server reports a conversation (its status, title, model,
 * metrics). Authenticated by the sandbox's session key, never by a user's: a sandbox writes only for its own
 * owner's conversations that run in it (another's is 404), and a conversation started directly on it is added.
 */
export function conversationWebhookRoutes({
  sandboxes,
  conversations,
}: { sandboxes: Sandboxes; conversations: Repositories['conversations'] }): ApiRoutes {
  return (app) => {
    app.post<{ Body: ConversationReport }>(
      '/webhooks/conversations',
      {
        // What an agent server reports comes from its conversation (a title from a message may hold U+0000).
        config: { public: true, nulInBody: true },
        preValidation: sandboxOnly(sandboxes),
        ...route('A sandbox’s agent server reports a conversation (header X-Session-API-Key: the sandbox’s key)', {
          body: ConversationReportBody,
          response: { 200: 'SuccessResponse' },
        }),
      },
      async (request, reply) => {
        const sandbox = request.sandbox as Sandbox;
        if (!(await keepReport(conversations, sandbox, request.body))) return notFound(reply, 'Conversation');
        return { success: true };
      },
    );
  };
}
