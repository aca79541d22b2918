import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';

const NotImplemented = Type.Object(
  { detail: Type.String() },
  { description: 'This OpenHands operation has no meaning in Bosun; the message says why and what to use.' },
);

/** OpenHands routes clients call that Bosun has no counterpart for: a 501 that says why, never a silent 404. */
const ROUTES = [
  {
    method: 'GET',
    url: '/api/plugins',
    summary: 'Installed plugins (501: Bosun installs no plugins on the server)',
    detail:
      'Bosun installs no plugins on the server: a conversation loads them from its `plugins` sources and its ' +
      'registered marketplaces (see its `resolved_plugins`), or at run time with POST ' +
      '/api/conversations/{id}/load_plugin.',
  },
  {
    method: 'POST',
    url: '/api/plugins',
    summary: 'User and project plugins (501: Bosun has no user or project plugins)',
    detail:
      'Bosun has no user or project plugins: a conversation loads them from its `plugins` sources and its ' +
      'registered marketplaces (see its `resolved_plugins`).',
  },
  {
    method: 'POST',
    url: '/api/skills/sync',
    summary: 'Sync the public skills (501: Bosun has no public skills repository)',
    detail:
      'Bosun has no public skills repository to sync: skill repositories are named in the agent context ' +
      '(`skill_repositories`) and fetched at the commit their ref names when a conversation starts.',
  },
  {
    method: 'POST',
    url: '/v1/chat/completions',
    summary: 'OpenAI-compatible completions (501: Bosun has no LLM gateway)',
    detail:
      'Bosun has no OpenAI-compatible LLM gateway: the agent calls its LLM (`agent.llm`) directly. GET /v1/models ' +
      "lists the server's default model.",
  },
] as const;

export function notApplicableRoutes(app: FastifyInstance): void {
  for (const route of ROUTES) {
    app.route({
      method: route.method,
      url: route.url,
      schema: { tags: ['Not applicable'], summary: route.summary, response: { 501: NotImplemented } },
      handler: async (_request, reply) => reply.code(501).send({ detail: route.detail }),
    });
  }
}
