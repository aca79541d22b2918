import type { FastifyInstance, HTTPMethods } from 'fastify';

interface NotApplicable {
  routes: [HTTPMethods, string][];
  detail: string;
}

/**
 * OpenHands routes clients call that Bosun has no counterpart for: each answers 501 with why and what to use
 * instead, never a silent 404. They are left out of the OpenAPI document (they are not operations of Bosun);
 * `packages/agent-server/README.md` lists them in its compatibility table.
 */
const NOT_APPLICABLE: NotApplicable[] = [
  {
    routes: [
      ['GET', '/api/plugins'],
      ['POST', '/api/plugins'],
    ],
    detail:
      'Bosun has no installed (user or project) plugins: a conversation loads them from its `plugins` sources and ' +
      'its registered marketplaces (see its `resolved_plugins`), or at run time with POST ' +
      '/api/conversations/{conversation_id}/load_plugin.',
  },
  {
    routes: [['POST', '/api/skills/sync']],
    detail:
      'Bosun has no public skills repository to sync: skill repositories are named in the agent context ' +
      '(`skill_repositories`) and fetched at the commit their ref names when a conversation starts.',
  },
  {
    routes: [['POST', '/v1/chat/completions']],
    detail:
      'Bosun has no OpenAI-compatible LLM gateway: the agent calls its LLM (`agent.llm`) directly. GET /v1/models ' +
      "lists the server's default model.",
  },
  {
    routes: [
      ['GET', '/api/git/changes/*'],
      ['GET', '/api/git/diff/*'],
      ['POST', '/api/file/upload/*'],
      ['GET', '/api/file/download/*'],
    ],
    detail:
      'Bosun has no path-style file and Git routes (OpenHands removed them in 1.20): give the path as a query parameter ' +
      '(GET /api/git/changes?path=, GET /api/git/diff?path=, POST /api/file/upload?path=, GET /api/file/download?path=).',
  },
  {
    routes: [
      ['GET', '/api/vscode/url'],
      ['GET', '/api/vscode/status'],
      ['GET', '/api/desktop/url'],
    ],
    detail: 'Bosun has no sandbox with an editor or a desktop: it works in a directory of the machine it runs on.',
  },
  {
    routes: [['POST', '/api/conversations/:conversation_id/generate_title']],
    detail:
      'Bosun has no title generation on request (OpenHands removed it too): a conversation is titled from its ' +
      'first message (`autotitle`), or with PATCH /api/conversations/{conversation_id}.',
  },
  {
    routes: [
      ['POST', '/api/conversations/:conversation_id/goal'],
      ['POST', '/api/conversations/:conversation_id/goal/stop'],
      ['POST', '/api/conversations/:conversation_id/goal/resume'],
    ],
    detail: 'Bosun has no goal loop: send a message with `run: true`; the agent works until it finishes.',
  },
  {
    routes: [['POST', '/api/conversations/:conversation_id/navigate']],
    detail:
      'Bosun has no event tree to navigate: a conversation’s log is linear; to branch, fork it (POST ' +
      '/api/conversations/{conversation_id}/fork with `from_event_id`).',
  },
  {
    routes: [
      ['POST', '/api/conversations/:conversation_id/switch_profile'],
      ['POST', '/api/conversations/:conversation_id/switch_acp_model'],
    ],
    detail:
      'Bosun has no LLM profiles or ACP agents: change the LLM with POST ' +
      '/api/conversations/{conversation_id}/switch_llm.',
  },
];

/** Every route of `NOT_APPLICABLE` (for tests and the compatibility table). */
export const NOT_APPLICABLE_ROUTES = NOT_APPLICABLE.flatMap(({ routes }) => routes);

export function notApplicableRoutes(app: FastifyInstance): void {
  for (const { routes, detail } of NOT_APPLICABLE) {
    for (const [method, url] of routes) {
      app.route({
        method,
        url,
        schema: { hide: true },
        handler: async (_request, reply) => reply.code(501).send({ detail }),
      });
    }
  }
}
