import type { TSchema } from '@sinclair/typebox';
import { errorResponses, shape } from './replies.ts';

/** What a route takes and answers; an answer named by a string is that protocol shape. */
export interface RouteSchema {
  description?: string;
  security?: Record<string, string[]>[];
  params?: TSchema;
  querystring?: TSchema;
  body?: TSchema;
  response: Record<number, TSchema | string>;
}

/**
 * The options of one tag's `/api/v1` routes: each route's summary, what it takes and its answers, to which the
 * errors every such route may answer (401, 404, 422) are added.
 */
export function routeOptions(...tags: string[]) {
  return (summary: string, { response, ...takes }: RouteSchema) => ({
    schema: { tags, summary, ...takes, response: { ...errorResponses, ...answers(response) } },
  });
}

function answers(response: RouteSchema['response']): Record<string, TSchema> {
  return Object.fromEntries(
    Object.entries(response).map(([status, answer]) => [status, typeof answer === 'string' ? shape(answer) : answer]),
  );
}
