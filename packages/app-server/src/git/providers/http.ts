import { AddressRefusedError, type ProviderRequest, type RawAnswer, requestRaw } from './request.ts';
import { GitProviderError, type PageAsk, type ProviderPage } from './types.ts';

/** How long one request to a provider may take. */
export const PROVIDER_TIMEOUT_MS = 10_000;

export interface ProviderHttp extends ProviderRequest {
  /** The provider's name for people ("GitHub"). */
  label: string;
  /** The REST API's root, without a trailing slash. */
  base: string;
}

export interface ProviderAnswer<T> {
  body: T;
  headers: Headers;
}

export type ProviderQuery = Record<string, string | number | undefined>;

/** GETs `path` (with `query`) from the provider; whatever is not a 2xx JSON answer is a `GitProviderError`. */
export function getJson<T>(http: ProviderHttp, path: string, query: ProviderQuery = {}): Promise<ProviderAnswer<T>> {
  const url = new URL(`${http.base}${path}`);
  for (const [name, value] of Object.entries(query)) if (value !== undefined) url.searchParams.set(name, `${value}`);
  return askJson<T>(http, url);
}

/** POSTs `body` as JSON to `url` (GitHub's GraphQL endpoint); the same errors as `getJson`. */
export const postJson = <T>(http: ProviderHttp, url: URL, body: unknown): Promise<ProviderAnswer<T>> =>
  askJson<T>(http, url, JSON.stringify(body));

async function askJson<T>(http: ProviderHttp, url: URL, body?: string): Promise<ProviderAnswer<T>> {
  let answer: RawAnswer;
  try {
    answer = await requestRaw(url, http, body);
  } catch (error) {
    if (error instanceof AddressRefusedError) throw new GitProviderError(400, `${http.label}: ${error.message}`);
    const timedOut = error instanceof Error && error.name === 'TimeoutError';
    const why = timedOut ? `did not answer within ${http.timeoutMs / 1000} s` : 'could not be reached';
    throw new GitProviderError(502, `${http.label} ${why} (${http.base})`);
  }
  if (answer.status < 200 || answer.status >= 300) throw refusal(http.label, answer);
  try {
    return { body: JSON.parse(answer.text) as T, headers: answer.headers };
  } catch {
    throw new GitProviderError(502, `${http.label} answered something that is not JSON`);
  }
}

/** `getJson` bound to one provider. */
export const getterOf =
  (http: ProviderHttp) =>
  <T>(path: string, query?: ProviderQuery) =>
    getJson<T>(http, path, query);

/** The error a provider's non-2xx answer becomes. */
function refusal(label: string, answer: RawAnswer): GitProviderError {
  const { status, headers } = answer;
  const retryAfter = rateLimitWait(headers, status);
  if (retryAfter !== undefined) return rateLimited(label, retryAfter);
  if (status === 401 || status === 403) {
    return new GitProviderError(403, `${label} refused the stored token (${status}): store a valid one`);
  }
  if (status === 404) return new GitProviderError(404, `Not found at ${label}`);
  if (status >= 500) return new GitProviderError(502, `${label} failed (${status})`);
  return new GitProviderError(400, `${label} refused the request (${status})`);
}

/** The error a rate-limited request becomes: a 429 with the seconds to wait. */
export const rateLimited = (label: string, retryAfter: number) =>
  new GitProviderError(429, `${label} rate-limits these requests: try again later`, retryAfter);

/**
 * Seconds to wait when the answer says the limit is reached: a 429, or a 403 with `x-ratelimit-remaining: 0` or
 * `retry-after` (GitHub's secondary limits); undefined otherwise.
 */
function rateLimitWait(headers: Headers, status: number): number | undefined {
  const retryAfter = headers.get('retry-after');
  const remaining = headers.get('x-ratelimit-remaining') ?? headers.get('ratelimit-remaining');
  const limited = status === 429 || (status === 403 && (retryAfter !== null || remaining === '0'));
  return limited ? secondsToWait(headers) : undefined;
}

/** Seconds to wait, from `retry-after`, else the limit's reset time, else a minute. */
export function secondsToWait(headers: Headers): number {
  const retryAfter = headers.get('retry-after');
  if (retryAfter !== null && /^\d+$/.test(retryAfter.trim())) return Number(retryAfter.trim());
  const reset = Number(headers.get('x-ratelimit-reset') ?? headers.get('ratelimit-reset'));
  if (Number.isFinite(reset) && reset > 0) return Math.max(1, Math.ceil(reset - Date.now() / 1000));
  return 60;
}

/** The page number a next-page URL asks for (its numeric `page` parameter), else null. */
export function pageNumberOf(link: string | null | undefined): string | null {
  if (!link) return null;
  const page = new URL(link, 'http://link.invalid').searchParams.get('page');
  return page && /^\d+$/.test(page) ? page : null;
}

/** The number of the next page, from the `Link` header's `rel="next"` (GitHub, GitLab) or `X-Next-Page` (GitLab). */
export function nextPage(headers: Headers): string | null {
  for (const part of (headers.get('link') ?? '').split(',')) {
    const page = pageNumberOf(/<([^>]+)>\s*;\s*rel="?next"?/.exec(part)?.[1]);
    if (page) return page;
  }
  const header = headers.get('x-next-page')?.trim();
  return header && /^\d+$/.test(header) ? header : null;
}

/** The provider's page of `items` as a page of `map`ped items, its next page from the answer's headers. */
export function pageFrom<T, W>(items: T[], headers: Headers, map: (item: T) => W): ProviderPage<W> {
  return { items: items.map(map), next_page_id: nextPage(headers) };
}

/** The provider's paging query for a page. */
export const paging = ({ page, limit }: PageAsk) => ({ page, per_page: limit });
