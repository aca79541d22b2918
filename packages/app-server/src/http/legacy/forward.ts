import { type TSchema, Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errorResponses } from '../replies.ts';

/** The headers that say who a request is and which organization it acts in: the V1 route reads them again. */
const IDENTITY_HEADERS = ['authorization', 'x-session-api-key', 'x-access-token', 'cookie', 'x-org-id'];

const KEPT_HEADERS = ['www-authenticate', 'retry-after'];

/** What a V1 route answered. */
export interface V1Answer {
  status: number;
  /** Those a refusal carries on (`WWW-Authenticate`, `Retry-After`). */
  headers: Record<string, string>;
  // biome-ignore lint/suspicious/noExplicitAny: wire JSON, read by each alias as the V1 route documents it.
  body: any;
}

/** A request to a V1 route, made in process on behalf of a legacy one. */
export interface V1Request {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
  body?: unknown;
}

/**
 * Calls the `/api/v1` route that serves what a legacy route asks, in process, as the caller: with the caller's
 * credentials and address, so authentication, rate limits, ownership and validation are the V1 route's own (the
 * aliases implement none of them).
 */
export async function callV1(app: FastifyInstance, request: FastifyRequest, call: V1Request): Promise<V1Answer> {
  const headers: Record<string, string> = {};
  for (const name of IDENTITY_HEADERS) {
    const value = request.headers[name];
    if (typeof value === 'string') headers[name] = value;
  }
  if (call.body !== undefined) headers['content-type'] = 'application/json';
  const answer = await app.inject({
    method: call.method ?? 'GET',
    url: call.url,
    headers,
    remoteAddress: request.ip,
    ...(call.body === undefined ? {} : { payload: JSON.stringify(call.body) }),
  });
  const kept: Record<string, string> = {};
  for (const name of KEPT_HEADERS) {
    const value = answer.headers[name];
    if (typeof value === 'string') kept[name] = value;
  }
  return { status: answer.statusCode, headers: kept, body: jsonOf(answer.body) };
}

/** A V1 answer's JSON (every V1 route these aliases call answers JSON; anything else is kept as text). */
function jsonOf(text: string): unknown {
  if (text.length === 0) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** Sends a V1 answer that is not a success as it is (its status, `{"detail"}` body and auth or retry headers). */
export function relay(reply: FastifyReply, answer: V1Answer): FastifyReply {
  return reply.code(answer.status).headers(answer.headers).send(answer.body);
}

/** Whether a V1 answer is a success (2xx). */
export const succeeded = (answer: V1Answer) => answer.status >= 200 && answer.status < 300;

/** A query string of `parameters`, those undefined left out. */
export function queryOf(parameters: Record<string, string | number | undefined>): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(parameters)) if (value !== undefined) query.append(name, String(value));
  const text = query.toString();
  return text.length > 0 ? `?${text}` : '';
}

/** Every item of a V1 search, page after page (at most `pages` of 100). */
export async function everyItem(
  app: FastifyInstance,
  request: FastifyRequest,
  path: string,
  pages = 20,
): Promise<V1Answer & { items?: unknown[] }> {
  const items: unknown[] = [];
  let pageId: string | undefined;
  for (let page = 0; page < pages; page += 1) {
    const answer = await callV1(app, request, { url: `${path}${queryOf({ limit: 100, page_id: pageId })}` });
    if (!succeeded(answer)) return answer;
    items.push(...answer.body.items);
    pageId = answer.body.next_page_id ?? undefined;
    if (!pageId) break;
  }
  return { status: 200, headers: {}, body: undefined, items };
}

/** The options of a legacy route: OpenHands' path, documented as deprecated, with the V1 route it aliases. */
export function legacyRoute(
  summary: string,
  v1: string,
  schema: {
    params?: TSchema;
    querystring?: TSchema;
    body?: TSchema;
    security?: [];
    response: Record<number, TSchema>;
  },
) {
  return {
    schema: {
      tags: ['OpenHands legacy routes'],
      summary,
      description: `${v1 === 'none' ? 'Served here' : `An alias of ${v1}`} in the shape OpenHands’ web client reads.`,
      deprecated: true,
      ...schema,
      response: { ...errorResponses, ...schema.response },
    },
  };
}

/** A JSON object documented by its description only (its fields are OpenHands'). */
export const openShape = (description: string) => Type.Object({}, { additionalProperties: true, description });
