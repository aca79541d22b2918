import type { HostAccount, HostAnswer, HostItem, HostRepository } from './git-host.ts';

/**
 * The stand-in's GitHub GraphQL API (`POST /api/graphql`, as GitHub Enterprise Server serves it). It cannot run
 * any query: it answers the app's operations by name (`BranchSearch`, `SuggestedPullRequests`), in GitHub's JSON,
 * after checking what GitHub checks before running one: the body is JSON with a `query`; every `$variable` used is
 * declared and every declared one used, and given with its type (`String`, `Int`; `!`: present, not null); every
 * connection asked (`refs`, `pullRequests`, `commits`, `reviewThreads`, `rules`) has `first` or `last`, at most 100
 * (`MISSING_PAGINATION_BOUNDARIES`, `EXCESSIVE_PAGINATION`); an `after` cursor is one it handed out
 * (`INVALID_CURSOR_ARGUMENTS`); an unknown repository is `NOT_FOUND`. Refs come sorted only when the query asks
 * `orderBy: {field: ALPHABETICAL, direction: ASC}`, and only `refs/heads/` is known.
 */

/** A pull request as GitHub's GraphQL API describes it beyond a REST search's item. */
export interface GitHubPull extends HostItem {
  mergeable?: 'MERGEABLE' | 'CONFLICTING' | 'UNKNOWN';
  /** Its head commit's `statusCheckRollup.state` (none: no checks). */
  checks?: 'SUCCESS' | 'FAILURE' | 'ERROR' | 'PENDING' | 'EXPECTED';
  /** Its review threads, each resolved or not. */
  threads?: boolean[];
  archived?: boolean;
}

/** The answer GraphQL gives the holder of an account's login instead of running the query (an error to test). */
export const graphQlFaults = new Map<string, HostAnswer>();

const CONNECTIONS = ['refs', 'pullRequests', 'commits', 'reviewThreads', 'rules'];

const failure = (type: string, message: string, status = 200): HostAnswer => ({
  status,
  body: { data: null, errors: [{ type, message, locations: [{ line: 1, column: 1 }] }] },
});

/** The answer to one GraphQL request `body` by the holder of `account`. */
export function gitHubGraphQlAnswer(account: HostAccount, path: string, _url: URL, body = ''): HostAnswer | undefined {
  if (path !== '') return undefined;
  const fault = graphQlFaults.get(account.login);
  if (fault) return fault;
  let request: { query?: unknown; variables?: unknown };
  try {
    request = JSON.parse(body);
  } catch {
    return { status: 400, body: { message: 'Problems parsing JSON' } };
  }
  const { query, variables = {} } = request;
  if (typeof query !== 'string') return { status: 400, body: { message: 'A query attribute must be specified' } };
  const given = (variables ?? {}) as Record<string, unknown>;
  const refused = checkVariables(query, given) ?? checkPaging(query, given);
  if (refused) return refused;
  const operation = /^\s*query\s+(\w+)/.exec(query)?.[1];
  if (operation === 'BranchSearch') return branchSearch(account, query, given);
  if (operation === 'SuggestedPullRequests') return { status: 200, body: { data: suggestedPulls(account) } };
  return failure('STAND_IN', `The stand-in does not answer the operation ${operation ?? '(anonymous)'}`);
}

/** Every `$variable` used is declared; every declared one is used, and given with its type. */
function checkVariables(query: string, given: Record<string, unknown>): HostAnswer | undefined {
  const header = /^\s*query\s+\w+\s*\(([^)]*)\)/.exec(query)?.[1] ?? '';
  const declared = new Map(
    [...header.matchAll(/\$(\w+)\s*:\s*(\w+)(!?)/g)].map(([, name, type, bang]) => [
      name as string,
      { type, required: bang === '!' },
    ]),
  );
  const rest = query.slice(query.indexOf(')') + 1);
  for (const [, name] of rest.matchAll(/\$(\w+)/g)) {
    if (!declared.has(name as string))
      return failure('UNDECLARED_VARIABLE', `Variable $${name} is used but not declared`);
  }
  const used = new Set([...rest.matchAll(/\$(\w+)/g)].map(([, name]) => name));
  for (const [name, { type, required }] of declared) {
    if (!used.has(name)) return failure('UNUSED_VARIABLE', `Variable $${name} is declared but not used`);
    const value = given[name];
    if (value === undefined || value === null) {
      if (required) return failure('INVALID_VARIABLE', `Variable $${name} of type ${type}! was provided invalid value`);
      continue;
    }
    const fits = type === 'Int' ? Number.isInteger(value) : type === 'String' ? typeof value === 'string' : true;
    if (!fits) return failure('INVALID_VARIABLE', `Variable $${name} of type ${type} was provided invalid value`);
  }
  return undefined;
}

/** Every connection asked has `first` or `last`, at most 100 (a literal, or a variable's value). */
function checkPaging(query: string, given: Record<string, unknown>): HostAnswer | undefined {
  for (const [, name, args = ''] of query.matchAll(/\b(\w+)\s*(?:\(([^)]*)\))?\s*\{/g)) {
    if (!CONNECTIONS.includes(name as string)) continue;
    const bound = /\b(?:first|last)\s*:\s*(\$?\w+)/.exec(args)?.[1];
    if (bound === undefined) {
      return failure(
        'MISSING_PAGINATION_BOUNDARIES',
        `You must provide a \`first\` or \`last\` value to properly paginate the \`${name}\` connection.`,
      );
    }
    const count = bound.startsWith('$') ? given[bound.slice(1)] : Number(bound);
    if (typeof count !== 'number' || count < 1 || count > 100) {
      return failure(
        'EXCESSIVE_PAGINATION',
        `Requesting ${count} records on the \`${name}\` connection exceeds the \`first\` limit of 100 records.`,
      );
    }
  }
  return undefined;
}

const cursorOf = (offset: number) => Buffer.from(`cursor:v2:${offset}`).toString('base64');
function offsetOf(cursor: unknown): number | undefined {
  if (cursor === undefined || cursor === null) return 0;
  const offset = /^cursor:v2:(\d+)$/.exec(Buffer.from(String(cursor), 'base64').toString('utf8'))?.[1];
  return offset === undefined ? undefined : Number(offset) + 1;
}

function branchSearch(account: HostAccount, query: string, given: Record<string, unknown>): HostAnswer {
  const fullName = `${given.owner}/${given.name}`;
  const repo = account.repositories.find((known) => known.fullName.toLowerCase() === fullName.toLowerCase());
  if (!repo) {
    const answer = failure('NOT_FOUND', `Could not resolve to a Repository with the name '${fullName}'.`);
    return { ...answer, body: { ...(answer.body as object), data: { repository: null } } };
  }
  const start = offsetOf(given.after);
  if (start === undefined) {
    return failure('INVALID_CURSOR_ARGUMENTS', `\`${given.after}\` does not appear to be a valid cursor.`);
  }
  if (!/refPrefix:\s*"refs\/heads\/"/.test(query))
    return { status: 200, body: { data: refsAnswer(repo, [], false, 0) } };
  const words = String(given.query ?? '').toLowerCase();
  const matching = repo.branches.filter((branch) => branch.name.toLowerCase().includes(words));
  const sorted = /orderBy:\s*\{\s*field:\s*ALPHABETICAL,\s*direction:\s*ASC\s*\}/.test(query)
    ? [...matching].sort((a, b) => (a.name < b.name ? -1 : 1))
    : matching;
  const page = sorted.slice(start, start + Number(given.first));
  return { status: 200, body: { data: refsAnswer(repo, page, start + page.length < sorted.length, start) } };
}

function refsAnswer(repo: HostRepository, page: HostRepository['branches'], more: boolean, start: number) {
  const nodes = page.map((branch) => ({
    name: branch.name,
    target: { oid: branch.sha, committedDate: branch.date },
    refUpdateRule: branch.protected ? { pattern: branch.name } : null,
    rules: { totalCount: 0 },
  }));
  const endCursor = page.length > 0 ? cursorOf(start + page.length - 1) : null;
  return {
    repository: { name: repo.fullName.split('/')[1], refs: { nodes, pageInfo: { hasNextPage: more, endCursor } } },
  };
}

function suggestedPulls(account: HostAccount) {
  const nodes = (account.pulls as GitHubPull[]).map((pull) => ({
    number: pull.number,
    title: pull.title,
    mergeable: pull.mergeable ?? 'MERGEABLE',
    repository: { nameWithOwner: pull.repo, isArchived: pull.archived ?? false },
    commits: { nodes: [{ commit: { statusCheckRollup: pull.checks ? { state: pull.checks } : null } }] },
    reviewThreads: { nodes: (pull.threads ?? []).map((isResolved) => ({ isResolved })) },
  }));
  return { viewer: { pullRequests: { nodes } } };
}
