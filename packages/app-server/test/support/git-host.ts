import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach } from 'vitest';
import { bitbucketDataCenterAnswer } from './git-host-bitbucket-dc.ts';
import { bitbucketAnswer } from './git-host-bitbucket.ts';
import { gitHubGraphQlAnswer } from './git-host-github-graphql.ts';
import { gitHubAnswer } from './git-host-github.ts';
import { gitLabAnswer } from './git-host-gitlab.ts';
import { OAUTH_PATHS, type OAuthStandIn, oauthAnswer, oauthStandIn } from './git-host-oauth.ts';

/**
 * A stand-in for GitHub's REST API v3 (under `/api/v3`, as GitHub Enterprise serves it) and its GraphQL API (`POST
 * /api/graphql`, see `git-host-github-graphql.ts`), GitLab's REST API v4
 * (under `/api/v4`), Bitbucket Cloud's REST API 2.0 (under `/2.0`) and Bitbucket Data Center's REST API 1.0 (under
 * `/rest/api/1.0`) on loopback: no Git host can run in the tests. It answers the calls the app makes with their documented JSON shapes and paging (headers; Bitbucket: the
 * body's `next`), checks the token as they do (401 for an unknown one; Bearer, or Basic `user:password`), and can
 * be turned down (503), rate-limiting (see `limited`) or silent (never answers). Its OAuth token endpoints renew
 * tokens with refresh tokens (`git-host-oauth.ts`).
 */

export interface HostRepository {
  id: number;
  /** `owner/repo` (GitLab: the project's full path). */
  fullName: string;
  private: boolean;
  stars: number;
  pushedAt: string;
  defaultBranch: string;
  ownerIsOrganization: boolean;
  branches: { name: string; sha: string; protected: boolean; date: string }[];
  /** The installation (GitLab: group) it is in. */
  installation?: number;
}

export interface HostItem {
  repo: string;
  number: number;
  title: string;
}

/** What the holder of a token sees. */
export interface HostAccount {
  id: number;
  login: string;
  name: string;
  email: string | null;
  company: string | null;
  repositories: HostRepository[];
  installations: number[];
  organizations: string[];
  /** Their open pull (merge) requests, and the open issues assigned to them. */
  pulls: HostItem[];
  issues: HostItem[];
}

export type HostMode = 'ok' | 'down' | 'rate-limited' | 'silent';

export interface GitHostStandIn {
  url: string;
  /** The accounts, by token. */
  accounts: Map<string, HostAccount>;
  mode: HostMode;
  /** Every request: its path and query, the credential it carried, and its body if it had one (GraphQL's). */
  requests: { path: string; credential: string | undefined; body?: string }[];
  /** The provider apps' OAuth client and the refresh tokens they gave. */
  oauth: OAuthStandIn;
  close(): Promise<void>;
}

/** One answer of the stand-in: a status, a JSON body and headers. */
export interface HostAnswer {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

/** A page of `items` as GitHub and GitLab page: `page`/`per_page` query, a `Link` header with next and last. */
export function paged<T>(url: URL, items: T[], sizeParam = 'per_page') {
  const page = Math.max(1, Number(url.searchParams.get('page') ?? 1));
  const perPage = Math.min(100, Math.max(1, Number(url.searchParams.get(sizeParam) ?? 30)));
  const last = Math.max(1, Math.ceil(items.length / perPage));
  const at = (n: number) => {
    const link = new URL(url);
    link.searchParams.set('page', String(n));
    return `${link}`;
  };
  const next = page < last ? at(page + 1) : null;
  const links = [...(next ? [`<${next}>; rel="next"`] : []), `<${at(last)}>; rel="last"`];
  const headers: Record<string, string> = {
    link: links.join(', '),
    'x-page': String(page),
    'x-per-page': String(perPage),
    'x-total': String(items.length),
    'x-next-page': next ? String(page + 1) : '',
  };
  return { items: items.slice((page - 1) * perPage, page * perPage), headers, page, perPage, next };
}

/** The bearer (or GitLab `PRIVATE-TOKEN`, GitHub `token`) credential of a request; Basic credentials: `user:password`. */
function credentialOf(request: IncomingMessage): string | undefined {
  const header = request.headers.authorization ?? '';
  const basic = /^Basic\s+(.+)$/i.exec(header)?.[1];
  if (basic) return Buffer.from(basic, 'base64').toString('utf8');
  // A `user:password` pair is Basic credentials only: as a bearer token it is refused.
  const match = /^(?:Bearer|token)\s+([^:]+)$/i.exec(header);
  return match?.[1] ?? (request.headers['private-token'] as string | undefined);
}

const APIS = {
  v3: { answer: gitHubAnswer, unauthorized: { message: 'Bad credentials' }, notFound: { message: 'Not Found' } },
  graphql: { answer: gitHubGraphQlAnswer, unauthorized: { message: 'Bad credentials' }, notFound: {} },
  v4: { answer: gitLabAnswer, unauthorized: { message: '401 Unauthorized' }, notFound: { message: '404 Not Found' } },
  '2.0': {
    answer: bitbucketAnswer,
    unauthorized: { type: 'error', error: { message: 'Access token expired or invalid' } },
    notFound: { type: 'error', error: { message: 'Resource not found' } },
  },
  'rest/api/1.0': {
    answer: bitbucketDataCenterAnswer,
    unauthorized: { errors: [{ message: 'Authentication failed. Please check your credentials and try again.' }] },
    notFound: { errors: [{ message: 'Repository does not exist.' }] },
  },
} as const;

/**
 * GitHub: 403 with `x-ratelimit-remaining: 0` (GraphQL: a 200 whose `errors` say `RATE_LIMITED`, as GitHub answers
 * its primary limit there); GitLab, Bitbucket Data Center: 429 with `Retry-After`; Bitbucket Cloud: a bare 429. */
function limited(api: string): HostAnswer {
  if (api === 'v3' || api === 'graphql') {
    const reset = String(Math.floor(Date.now() / 1000) + 30);
    const headers = { 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': reset };
    if (api === 'v3') return { status: 403, body: { message: 'API rate limit exceeded' }, headers };
    const errors = [{ type: 'RATE_LIMITED', message: 'API rate limit exceeded for user ID 1.' }];
    return { status: 200, body: { errors }, headers };
  }
  if (api === '2.0') return { status: 429, body: { type: 'error', error: { message: 'Rate limit exceeded' } } };
  return { status: 429, body: { message: 'Retry later' }, headers: { 'retry-after': '17' } };
}

export async function startGitHost(): Promise<GitHostStandIn> {
  const held: ServerResponse[] = [];
  const accounts = new Map<string, HostAccount>();
  const host: GitHostStandIn = {
    url: '',
    accounts,
    oauth: oauthStandIn(accounts),
    mode: 'ok',
    requests: [],
    close: () => {
      for (const response of held) response.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => answer(request, response, Buffer.concat(chunks).toString('utf8')));
  });
  const answer = (request: IncomingMessage, response: ServerResponse, body: string) => {
    const url = new URL(request.url ?? '/', host.url);
    const credential = credentialOf(request);
    host.requests.push({ path: `${url.pathname}${url.search}`, credential, ...(body ? { body } : {}) });
    const apiPath = /^(?:\/api\/(v3|v4|graphql(?=$))|\/(2\.0)|\/(rest\/api\/1\.0))(\/.*|)$/.exec(url.pathname);
    const [, api = '', path = ''] = apiPath?.filter(Boolean) ?? [];
    const send = ({ status, body, headers = {} }: HostAnswer) => {
      response.writeHead(status, { 'content-type': 'application/json', ...headers });
      response.end(JSON.stringify(body));
    };
    if (host.mode === 'silent') return void held.push(response);
    if (host.mode === 'down') return send({ status: 503, body: { message: 'Service Unavailable' } });
    if (host.mode === 'rate-limited') return send(limited(api));
    const oauth = request.method === 'POST' ? OAUTH_PATHS[url.pathname] : undefined;
    if (oauth) return void oauthAnswer(host.oauth, accounts, oauth, request, body).then(send);
    if (!api) return send({ status: 404, body: { message: 'Not Found' } });
    const known = APIS[api as keyof typeof APIS];
    const account = credential === undefined ? undefined : host.accounts.get(credential);
    if (!account) return send({ status: 401, body: known.unauthorized });
    send(known.answer(account, path, url, body) ?? { status: 404, body: known.notFound });
  };
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  host.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return host;
}

/** The stand-in for one test file: closed after the file, answering again (`ok`) after each test. */
export async function gitHostOfFile(): Promise<GitHostStandIn> {
  const host = await startGitHost();
  afterAll(() => host.close());
  afterEach(() => {
    host.mode = 'ok';
  });
  return host;
}
