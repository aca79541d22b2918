import { InputError } from '@bosun/http';
import { PROVIDER_TYPES, type ProviderType, SORT_ORDERS, type SortOrder } from '@bosun/protocol';
import { type TProperties, Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ApiRoutes } from '../../http/api-routes.ts';
import { pageOfList } from '../../http/pages.ts';
import { routeOptions } from '../../http/route-options.ts';
import { principalOf } from '../../identity/authenticate.ts';
import { type GitProviderApi, GitProviderError, isBrowsable } from '../providers/index.ts';
import {
  type GitBrowseDeps,
  TOKENS_ROUTE,
  firstProvider,
  gitInfoRoutes,
  noProvider,
  providerApiOf,
} from './git-info.ts';

const route = routeOptions('Git');

const stringEnum = (values: readonly string[], description: string) =>
  Type.Unsafe<string>({ type: 'string', enum: [...values], description });
const provider = stringEnum(
  PROVIDER_TYPES,
  'The Git provider (GitHub, GitLab, Bitbucket Cloud and Data Center can be browsed).',
);
const pageId = Type.Optional(
  Type.String({ pattern: '^[1-9][0-9]{0,5}$', description: 'The `next_page_id` of the previous page.' }),
);
const limit = (fallback: number) =>
  Type.Optional(Type.Integer({ minimum: 1, maximum: 100, description: `Items per page (default ${fallback}).` }));
const text = (description: string, maxLength = 256) => Type.String({ maxLength, description });
const query = <P extends TProperties>(shape: P) => Type.Object(shape, { additionalProperties: false });

const RepositoryQuery = query({
  provider,
  query: Type.Optional(text('Part of the repositories’ names; none: the caller’s own repositories.')),
  installation_id: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 64,
      description:
        'Only the repositories of this installation (GitLab: group id; Bitbucket: workspace slug; Data Center: project key).',
    }),
  ),
  page_id: pageId,
  limit: limit(100),
  sort_order: Type.Optional(stringEnum(SORT_ORDERS, 'How they are sorted (default: last updated first).')),
});
interface RepositoryQuery {
  provider: ProviderType;
  query?: string;
  installation_id?: string;
  page_id?: string;
  limit?: number;
  sort_order?: SortOrder;
}

const BranchQuery = query({
  provider,
  repository: Type.String({
    pattern: '^[^/\\s]+(/[^/\\s]+)+$',
    maxLength: 512,
    description: 'The repository, `owner/repo` (GitLab: the project’s full path; Bitbucket: `workspace/repo`).',
  }),
  query: text('Part of the branches’ names (empty: every branch).'),
  page_id: Type.Optional(
    Type.String({
      pattern: '^[A-Za-z0-9+/=_-]{1,512}$',
      description: 'The `next_page_id` of the previous page (GitHub: a GraphQL cursor; the others: a page number).',
    }),
  ),
  limit: limit(30),
});
interface BranchQuery {
  provider: ProviderType;
  repository: string;
  query: string;
  page_id?: string;
  limit?: number;
}

const InstallationQuery = query({ provider, page_id: pageId, limit: limit(100) });
const TaskQuery = query({
  page_id: Type.Optional(
    Type.String({ pattern: '^(0|[1-9][0-9]{0,8})$', description: 'The `next_page_id` of the previous page.' }),
  ),
  limit: limit(30),
});
type PageQuery = { page_id?: string; limit?: number };

const FAILURES = { 400: 'HTTPError', 401: 'HTTPError', 403: 'HTTPError', 429: 'HTTPError', 502: 'HTTPError' } as const;
const FAILURE_NOTE =
  'No token stored for the provider: 403; a sign-in’s token that expired and could not be renewed: 401 (sign in ' +
  'again). The provider refusing the token: 403; rate-limiting: 429 with its ' +
  'Retry-After; down or unreachable: 502. Providers other than GitHub, GitLab and Bitbucket: 400.';

/**
 * `/git/{repositories,branches,installations,suggested-tasks}/search` and `/users/git-organizations`: the caller's
 * Git provider read with the token they stored (`/secrets/git-providers`), as OpenHands' home page reads it; and
 * `/users/git-info`, the account behind that token.
 */
export function gitBrowseApi(deps: GitBrowseDeps): ApiRoutes {
  return (api, context) => {
    gitInfoRoutes(deps)(api, context);
    gitSearchRoutes(deps)(api, context);
  };
}

function gitSearchRoutes(deps: GitBrowseDeps): ApiRoutes {
  return (api) => {
    /** The caller's API of `provider`; none (unsupported, no token) is a `GitProviderError`. */
    const reach = async (userId: string, provider: string): Promise<GitProviderApi> => {
      if (!isBrowsable(provider)) {
        throw new GitProviderError(400, `Browsing ${provider} is not supported yet (GitHub, GitLab and Bitbucket are)`);
      }
      const access = await deps.providerTokens.token(userId, provider);
      if (!access && (await deps.providerTokens.list(userId)).some((known) => known.provider === provider)) {
        throw new GitProviderError(
          401,
          `The ${provider} token of your sign-in expired and was not renewed: sign in again`,
        );
      }
      if (!access) {
        throw new GitProviderError(403, `No ${provider} token is stored: connect it first (${TOKENS_ROUTE})`);
      }
      return providerApiOf(deps, provider, access);
    };
    /** Answers what `ask` gets from the caller's provider (page 1 unless `page_id` says), or why it cannot. */
    const browse =
      <Q extends { provider: string; page_id?: string }>(
        ask: (git: GitProviderApi, query: Q, page: number) => Promise<unknown>,
      ) =>
      (request: FastifyRequest<{ Querystring: Q }>, reply: FastifyReply) =>
        answerOrFail(reply, async () => {
          const asked = request.query as Q;
          const git = await reach(principalOf(request).userId, asked.provider);
          return ask(git, asked, Number(asked.page_id ?? 1));
        });

    api.get<{ Querystring: RepositoryQuery }>(
      '/git/repositories/search',
      route('The caller’s repositories at a Git provider, or those matching a query', {
        description: FAILURE_NOTE,
        querystring: RepositoryQuery,
        response: { 200: 'RepositoryPage', ...FAILURES },
      }),
      browse<RepositoryQuery>((git, q, page) =>
        git.repositories({
          page,
          limit: q.limit ?? 100,
          query: q.query,
          installationId: q.installation_id,
          sortOrder: q.sort_order,
        }),
      ),
    );

    api.get<{ Querystring: BranchQuery }>(
      '/git/branches/search',
      route('The branches of a repository whose names hold a query', {
        description: `An unknown repository: 404. ${FAILURE_NOTE}`,
        querystring: BranchQuery,
        response: { 200: 'BranchPage', ...FAILURES },
      }),
      browse<BranchQuery>((git, q, page) => {
        // GitHub pages branches by cursor; the others by page number, as `pageId` allows.
        if (q.provider !== 'github' && q.page_id !== undefined && !/^[1-9][0-9]{0,5}$/.test(q.page_id)) {
          throw new InputError([
            { loc: ['query', 'page_id'], msg: 'page_id is not a page number', type: 'value_error' },
          ]);
        }
        return git.branches({
          page,
          cursor: q.page_id,
          limit: q.limit ?? 30,
          repository: q.repository,
          query: q.query,
        });
      }),
    );

    api.get<{ Querystring: PageQuery & { provider: ProviderType } }>(
      '/git/installations/search',
      route(
        'The caller’s installations at a Git provider (GitHub App installations; GitLab: groups; Bitbucket: workspaces)',
        {
          description: FAILURE_NOTE,
          querystring: InstallationQuery,
          response: { 200: 'InstallationPage', ...FAILURES },
        },
      ),
      browse<PageQuery & { provider: ProviderType }>((git, q, page) =>
        git.installations({ page, limit: q.limit ?? 100 }),
      ),
    );

    api.get<{ Querystring: PageQuery }>(
      '/git/suggested-tasks/search',
      route('Suggested tasks: the caller’s open pull (merge) requests and the open issues assigned to them', {
        description: `From every connected GitHub, GitLab and Bitbucket account (the first 100 of each kind; Bitbucket Cloud’s pull requests: 50). A GitHub pull request is the first that holds of MERGE_CONFLICTS, FAILING_CHECKS, UNRESOLVED_COMMENTS, else OPEN_PR; the others’ are OPEN_PR. A provider that cannot answer (misconfigured, refusing its token, down) is left out of the others’ tasks; when none can, why the first cannot: ${FAILURE_NOTE}`,
        querystring: TaskQuery,
        response: { 200: 'SuggestedTaskPage', ...FAILURES },
      }),
      async (request, reply) => {
        const { userId } = principalOf(request);
        const connected = await deps.providerTokens.list(userId);
        if (connected.length === 0) return noProvider(reply);
        const browsable = PROVIDER_TYPES.filter(isBrowsable).filter((name) =>
          connected.some((c) => c.provider === name),
        );
        const answers = await Promise.allSettled(
          browsable.map(async (name) => (await reach(userId, name)).suggestedTasks()),
        );
        const failures: GitProviderError[] = [];
        const tasks = answers.flatMap((answer, at) => {
          if (answer.status === 'fulfilled') return answer.value;
          if (!(answer.reason instanceof GitProviderError)) throw answer.reason;
          failures.push(answer.reason);
          request.log.warn(
            { provider: browsable[at], status: answer.reason.status },
            `Suggested tasks of ${browsable[at]} left out: ${answer.reason.detail}`,
          );
          return [];
        });
        return answerOrFail(reply, async () => {
          // One provider that answered is enough: the others are left out (logged); none answered: why the first did not.
          if (failures.length === answers.length && failures[0]) throw failures[0];
          return pageOfList(tasks, (task) => task, {
            page_id: request.query.page_id,
            limit: request.query.limit ?? 30,
          });
        });
      },
    );

    api.get(
      '/users/git-organizations',
      route('The organizations (GitLab: groups; Bitbucket: workspaces) the caller belongs to on their Git provider', {
        description: `The provider is the first connected, in ProviderType’s order (as /users/git-info’s). ${FAILURE_NOTE}`,
        response: { 200: 'GitOrganizationsResponse', ...FAILURES },
      }),
      async (request, reply) => {
        const { userId } = principalOf(request);
        const first = firstProvider(await deps.providerTokens.list(userId));
        if (!first) return noProvider(reply);
        return answerOrFail(reply, async () => ({
          provider: first,
          organizations: await (await reach(userId, first)).organizations(),
        }));
      },
    );
  };
}

async function answerOrFail(reply: FastifyReply, answer: () => Promise<unknown>) {
  try {
    return await answer();
  } catch (error) {
    if (!(error instanceof GitProviderError)) throw error;
    if (error.retryAfter !== undefined) reply.header('retry-after', String(error.retryAfter));
    return reply.code(error.status).send({ detail: error.detail });
  }
}
