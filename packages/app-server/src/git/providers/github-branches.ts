import type { Branch } from '@bosun/protocol';
import { gitHubGraphQl } from './github-graphql.ts';
import type { ProviderHttp } from './http.ts';
import { type BranchSearch, GitProviderError, type ProviderPage } from './types.ts';

/**
 * The repository's branches whose names hold `$query` (GitHub matches on the name; none: every branch), in
 * alphabetical order, `$first` after the cursor `$after`. A branch is protected when a classic protection rule
 * (`refUpdateRule`, readable without admin rights) or an active ruleset applies to it, as REST's `protected` says.
 */
export const BRANCH_SEARCH = `query BranchSearch($owner: String!, $name: String!, $query: String, $first: Int!, $after: String) {
  repository(owner: $owner, name: $name) {
    refs(refPrefix: "refs/heads/", query: $query, first: $first, after: $after, orderBy: {field: ALPHABETICAL, direction: ASC}) {
      nodes {
        name
        target { ... on Commit { oid committedDate } }
        refUpdateRule { pattern }
        rules(first: 1) { totalCount }
      }
      pageInfo { hasNextPage endCursor }
    }
  }
}`;

interface RefNode {
  name: string;
  target: { oid?: string; committedDate?: string } | null;
  refUpdateRule: { pattern: string } | null;
  rules: { totalCount: number } | null;
}

interface BranchSearchData {
  repository: {
    refs: { nodes: RefNode[]; pageInfo: { hasNextPage: boolean; endCursor: string | null } } | null;
  } | null;
}

/**
 * A full page of branches from GitHub's GraphQL API (its REST API has no branch search): `next_page_id` is the
 * GraphQL cursor of the page's end.
 */
export async function gitHubBranches(
  http: ProviderHttp,
  { repository, query, cursor, limit }: BranchSearch,
): Promise<ProviderPage<Branch>> {
  const [owner, name, ...deeper] = repository.split('/');
  if (!owner || !name || deeper.length > 0) throw new GitProviderError(404, `Not found at ${http.label}`);
  const variables = { owner, name, query: query || null, first: limit, after: cursor ?? null };
  const data = await gitHubGraphQl<BranchSearchData>(http, BRANCH_SEARCH, variables);
  const refs = data.repository?.refs;
  if (!refs) throw new GitProviderError(404, `Not found at ${http.label}`);
  return {
    items: refs.nodes.map(
      (ref): Branch => ({
        name: ref.name,
        commit_sha: ref.target?.oid ?? '',
        protected: ref.refUpdateRule !== null || (ref.rules?.totalCount ?? 0) > 0,
        last_push_date: ref.target?.committedDate ?? null,
      }),
    ),
    next_page_id: refs.pageInfo.hasNextPage ? refs.pageInfo.endCursor : null,
  };
}
