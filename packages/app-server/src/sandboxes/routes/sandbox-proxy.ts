import type { IncomingHttpHeaders } from 'node:http';
import { FORWARDS_BODY } from '@bosun/http';
import replyFrom from '@fastify/reply-from';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import type { ApiRoutes } from '../../http/api-routes.ts';
import { SANDBOX_PROXY_PREFIX, SANDBOX_PROXY_SUFFIX, proxiedAgentPath } from '../browser-urls.ts';
import { type ProxyTarget, type ProxyTargets, isRefusal } from '../proxy-targets.ts';
import { pipeSocket } from '../socket-pipe.ts';

const SANDBOX_ID = /^[A-Za-z0-9_-]{1,100}$/;
/** The app's own credentials: never forwarded to a sandbox (its agent server has its session key). */
const APP_CREDENTIALS = ['cookie', 'authorization', 'x-access-token'];
const ROUTE = `${SANDBOX_PROXY_PREFIX}/:sandbox_id${SANDBOX_PROXY_SUFFIX}/*`;

/** What a request was let through to: the sandbox's agent server, and the path (with query) asked of it. */
interface Forward {
  target: ProxyTarget;
  path: string;
}

/**
 * `/sandboxes/{sandbox_id}/agent/...`: a reverse proxy to the sandbox's agent server, so the app's public URL is
 * all a browser needs. Every method, its query and its body are streamed (`@fastify/reply-from`, bodies never
 * parsed here), WebSocket upgrades relayed both ways. Only sandboxes the app knows are proxied, and only with the
 * sandbox's own session key (see `sandboxProxyTargets`); the app's cookie, bearer and access token are stripped,
 * `X-Forwarded-*` added. A refusal is `{"detail"}`: 401 without the sandbox's key, whether the sandbox exists or
 * not; with it, 409 (not running) or 410 (gone); 404 for what cannot be a sandbox id, 400 for a path leaving the
 * prefix. An agent server that does not answer, 502.
 */
export function sandboxProxy(targets: ProxyTargets): ApiRoutes {
  return async (app) => {
    await app.register(async (scope) => {
      scope.removeAllContentTypeParsers();
      scope.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
      await scope.register(replyFrom, { disableCache: true, disableRequestLogging: true });
      const forwards = new WeakMap<FastifyRequest, Forward>();
      const preHandler = async (request: FastifyRequest, reply: FastifyReply) => {
        const forward = await admitted(request, reply, targets);
        if (forward) forwards.set(request, forward);
      };
      const handler = (request: FastifyRequest, reply: FastifyReply) => {
        const forward = forwards.get(request) as Forward;
        return forwardHttp(request, reply, forward);
      };
      const wsHandler = (socket: WebSocket, request: FastifyRequest) => {
        const { target, path } = forwards.get(request) as Forward;
        // Concatenated, never resolved: a path starting with `//` stays a path of the agent server's origin.
        const url = new URL(`${new URL(target.agentServerUrl).origin}${basePathOf(target)}${path}`);
        url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
        pipeSocket(socket, url.href, forwardedHeaders(request, pick(request.headers, ['x-session-api-key'])));
      };
      const schema = { hide: true };
      // Bodies go on as they came, Content-Encoding included: the agent server decodes them.
      const config = FORWARDS_BODY;
      scope.route({ method: 'GET', url: ROUTE, schema, config, preHandler, handler, wsHandler });
      const others = ['DELETE', 'HEAD', 'OPTIONS', 'PATCH', 'POST', 'PUT'];
      scope.route({ method: others, url: ROUTE, schema, config, preHandler, handler });
    });
  };
}

/** The request's sandbox and path when it may go through; else answered here (and undefined). */
async function admitted(request: FastifyRequest, reply: FastifyReply, targets: ProxyTargets) {
  const { sandbox_id: id } = request.params as { sandbox_id: string };
  if (!SANDBOX_ID.test(id)) return void reply.code(404).send({ detail: 'Sandbox not found' });
  const path = pathAfterPrefix(request.raw.url ?? '');
  if (path === undefined) {
    return void reply.code(400).send({ detail: `The path leaves ${proxiedAgentPath(id)}: no "." or ".." segments` });
  }
  const header = request.headers['x-session-api-key'];
  const query = (request.query as Record<string, unknown>).session_api_key;
  const key = typeof header === 'string' ? header : typeof query === 'string' ? query : undefined;
  const found = await targets(id, key);
  if (isRefusal(found)) return void reply.code(found.status).send({ detail: found.detail });
  return { target: found, path };
}

/**
 * The raw path after `/sandboxes/{id}/agent` (percent-encoding kept, as the agent server must see it) with its
 * query; undefined when a segment is, or decodes to, a dot segment (or cannot be decoded).
 */
function pathAfterPrefix(rawUrl: string): string | undefined {
  const queryAt = rawUrl.indexOf('?');
  const rawPath = queryAt < 0 ? rawUrl : rawUrl.slice(0, queryAt);
  const rest = `/${rawPath.split('/').slice(4).join('/')}`;
  let decoded: string;
  try {
    decoded = decodeURIComponent(rest);
  } catch {
    return undefined;
  }
  if (decoded.split(/[\\/]/).some((segment) => segment === '.' || segment === '..')) return undefined;
  return queryAt < 0 ? rest : `${rest}${rawUrl.slice(queryAt)}`;
}

function forwardHttp(request: FastifyRequest, reply: FastifyReply, { target, path }: Forward) {
  const { origin } = new URL(target.agentServerUrl);
  return reply.from(`${basePathOf(target)}${path}`, {
    getUpstream: () => origin,
    // Never sent twice: a retried upload would have lost its streamed body.
    retryDelay: () => null,
    rewriteRequestHeaders: (_request, headers) => forwardedHeaders(request, withoutAppCredentials(headers)),
    onError: (outgoing, { error }) => {
      request.log.warn({ err: error }, 'the sandbox’s agent server did not answer');
      outgoing.code(502).send({ detail: "The sandbox's agent server did not answer" });
    },
  });
}

/** The agent server URL's own path (a runtime may serve it under one), without its trailing slash. */
function basePathOf(target: ProxyTarget): string {
  return new URL(target.agentServerUrl).pathname.replace(/\/+$/, '');
}

function withoutAppCredentials(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  const kept = { ...headers };
  for (const name of APP_CREDENTIALS) delete kept[name];
  return kept;
}

function pick(headers: IncomingHttpHeaders, names: readonly string[]): Record<string, string> {
  return Object.fromEntries(
    names.flatMap((name) => (typeof headers[name] === 'string' ? [[name, headers[name]]] : [])),
  );
}

/** `headers` with the usual `X-Forwarded-*` of `request` (appended to a chain the client came through). */
function forwardedHeaders<T extends object>(request: FastifyRequest, headers: T): T & Record<string, string> {
  const chain = request.headers['x-forwarded-for'];
  const { sandbox_id: id } = request.params as { sandbox_id: string };
  return {
    ...headers,
    'x-forwarded-for': typeof chain === 'string' ? `${chain}, ${request.ip}` : request.ip,
    'x-forwarded-host': request.headers.host ?? '',
    'x-forwarded-proto': request.protocol,
    'x-forwarded-prefix': proxiedAgentPath(id),
  };
}
