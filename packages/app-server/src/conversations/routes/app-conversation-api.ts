import type { preHandlerAsyncHookHandler } from 'fastify';
import type { Repositories } from '../../data/index.ts';
import type { Lease } from '../../data/row-leases.ts';
import type { ApiRoutes } from '../../http/api-routes.ts';
import { AppConversations } from '../app-conversations.ts';
import type { ConversationDeps } from '../deps.ts';
import { StartTasks } from '../start-tasks.ts';
import { appConversationRoutes } from './app-conversations.ts';

import { webClientConfigRoutes } from '../../http/web-client-config.ts';
import { conversationWebhookRoutes } from './conversation-webhooks.ts';
import { conversationWorkspaceRoutes } from './conversation-workspace.ts';
import { startTaskRoutes } from './start-tasks.ts';

export interface ConversationApiDeps extends Omit<ConversationDeps, 'log' | 'repositories'> {
  /** The conversations' repositories, and the app's event store (a conversation's export reads it). */
  repositories: ConversationDeps['repositories'] & Pick<Repositories, 'events'>;
  /** What limits starts of conversations per user (each may start a sandbox). */
  startLimit?: preHandlerAsyncHookHandler;
  /** Where to sign in, told to the web client (`auth_url`; default: nowhere). */
  authUrl?: () => string | null;
  /** The lease of start tasks (default: `LEASE`). */
  startTaskLease?: Lease;
}

/**
 * The `/api/v1` routes of the application's conversations over `deps`: starts and their tasks, the conversations
 * and their workspaces (files, Git, skills, hooks, export), the agent servers' conversation webhook and the web
 * client's configuration. Tasks whose replica stopped are taken over (or ERROR when they cannot run again); when
 * the server closes, starts under way are waited for a short grace, then handed over to the other replicas.
 */
export function conversationApi({ startLimit, startTaskLease, authUrl, ...deps }: ConversationApiDeps): ApiRoutes {
  return async (api, context) => {
    const services = { ...deps, log: api.log };
    const tasks = await StartTasks.open(services, startTaskLease);
    startTaskRoutes({ tasks, startTasks: deps.repositories.startTasks, ...(startLimit ? { startLimit } : {}) })(
      api,
      context,
    );
    appConversationRoutes(new AppConversations(services), startLimit ? { preHandler: startLimit } : {})(api, context);
    conversationWorkspaceRoutes(services)(api, context);
    conversationWebhookRoutes({ sandboxes: deps.sandboxes, conversations: deps.repositories.conversations })(
      api,
      context,
    );
    webClientConfigRoutes(deps.gitUrls, authUrl)(api, context);
    api.addHook('onClose', () => tasks.close());
  };
}
