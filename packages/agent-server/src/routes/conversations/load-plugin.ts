import { ConflictError, InputError } from '@bosun/http';
import type { LoadPluginRequest } from '@bosun/protocol';
import type { GitCache, GitProviders } from '@bosun/sources';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { PluginLoadError, fetchMarketplacePlugin } from '../../agent/marketplace-plugin.ts';
import type { RecordedPlugin } from '../../conversations/record.ts';
import { secretValues } from '../../conversations/secret-values.ts';
import type { ConversationService } from '../../conversations/service.ts';
import { recordPlugin } from '../../conversations/settings.ts';
import { ConversationIdParams, conversationOf, upstreamActionResponses } from '../params.ts';

export interface LoadPluginRouteDeps {
  service: ConversationService;
  git: GitCache;
  providers?: GitProviders;
}

/**
 * `POST /api/conversations/{id}/load_plugin` (OpenHands'): loads a plugin of a registered marketplace into the
 * conversation. Its skills, hooks and MCP servers are there from the agent's next step on (the agent is built
 * again); it stays pinned to the commit fetched, across restarts.
 */
export function loadPluginRoutes(app: FastifyInstance, deps: LoadPluginRouteDeps): void {
  app.post<{ Body: LoadPluginRequest }>(
    '/api/conversations/:conversation_id/load_plugin',
    {
      schema: {
        tags: ['Conversations'],
        summary: 'Load a plugin (`name@marketplace`) of a registered marketplace (409 while a run is in progress)',
        params: ConversationIdParams,
        body: Type.Unsafe({ $ref: 'LoadPluginRequest#' }),
        response: upstreamActionResponses,
      },
    },
    async (request, reply) => {
      const conversation = conversationOf(deps.service, request);
      if (conversation.activeRun) throw new ConflictError('A run is in progress: pause or interrupt it first.');
      const at = request.body.plugin_ref.lastIndexOf('@');
      const [name, marketplace] = [request.body.plugin_ref.slice(0, at), request.body.plugin_ref.slice(at + 1)];
      let added: RecordedPlugin | null;
      try {
        added = await fetchMarketplacePlugin(
          conversation,
          { git: deps.git, ...(deps.providers ? { providers: deps.providers } : {}) },
          () => secretValues(conversation),
          name,
          marketplace,
        );
      } catch (error) {
        if (!(error instanceof PluginLoadError)) throw error;
        if (error.reason === 'fetch') return reply.code(502).send({ detail: error.message });
        if (error.reason === 'not-ready') throw new ConflictError(error.message);
        throw new InputError([{ loc: ['body', 'plugin_ref'], msg: error.message, type: 'value_error' }]);
      }
      if (added) {
        // A run may have started during the fetch: its agent must not be closed under it.
        if (conversation.activeRun) throw new ConflictError('A run is in progress: pause or interrupt it first.');
        // In the same turn as the check: the agent is built again, with the plugin, when it is next needed.
        await Promise.all([conversation.release(), recordPlugin(conversation, added)]);
      }
      return { success: true };
    },
  );
}
