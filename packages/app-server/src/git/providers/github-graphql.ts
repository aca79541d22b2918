import { InputError } from '@bosun/http';
import { type ProviderHttp, postJson, rateLimited, secondsToWait } from './http.ts';
import { GitProviderError } from './types.ts';

/** One entry of a GraphQL answer's `errors` (GitHub adds `type`). */
interface GraphQlError {
  type?: string;
  message?: string;
}

interface GraphQlAnswer<T> {
  data?: T | null;
  errors?: GraphQlError[];
}

/**
 * GitHub's GraphQL endpoint beside its REST API: `https://api.github.com/graphql`, GitHub Enterprise Server's
 * `<url>/api/graphql` (its REST API being `<url>/api/v3`).
 */
export function graphQlUrl(restBase: string): URL {
  return new URL(restBase.endsWith('/api/v3') ? `${restBase.slice(0, -'/v3'.length)}/graphql` : `${restBase}/graphql`);
}

/**
 * The `data` of a GraphQL `query` with `variables`. GitHub answers most errors with a 200 and an `errors` array:
 * they become the errors the REST calls give (the primary rate limit a 429, `NOT_FOUND` a 404, `FORBIDDEN` a 403);
 * a cursor GitHub does not know is the caller's bad `page_id` (422). Non-2xx answers are mapped as REST ones are.
 */
export async function gitHubGraphQl<T>(http: ProviderHttp, query: string, variables: object): Promise<T> {
  const { body, headers } = await postJson<GraphQlAnswer<T>>(http, graphQlUrl(http.base), { query, variables });
  const errors = Array.isArray(body?.errors) ? body.errors : [];
  const limited = errors.some(({ type }) => type === 'RATE_LIMITED') || headers.get('x-ratelimit-remaining') === '0';
  if (errors.length > 0 && limited) throw rateLimited(http.label, secondsToWait(headers));
  const [first] = errors;
  if (first) throw graphQlError(http.label, first);
  if (!body?.data) throw new GitProviderError(502, `${http.label} answered a GraphQL query without data`);
  return body.data;
}

function graphQlError(label: string, { type, message }: GraphQlError): Error {
  if (type === 'NOT_FOUND') return new GitProviderError(404, `Not found at ${label}`);
  if (type === 'FORBIDDEN')
    return new GitProviderError(403, `${label} refused the stored token (403): store a valid one`);
  if (type === 'INVALID_CURSOR_ARGUMENTS') {
    const msg = 'page_id is not a page id returned by a previous page';
    return new InputError([{ loc: ['query', 'page_id'], msg, type: 'value_error' }]);
  }
  // Anything else is a query GitHub would not run: the app's fault, said without echoing much of GitHub's text.
  const why = typeof message === 'string' ? `: ${message.slice(0, 200)}` : '';
  return new GitProviderError(502, `${label} refused the app's GraphQL query (${type ?? 'error'})${why}`);
}
