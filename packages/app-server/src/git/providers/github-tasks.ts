import type { SuggestedTask, TaskType } from '@bosun/protocol';
import { gitHubGraphQl } from './github-graphql.ts';
import type { ProviderHttp } from './http.ts';

/**
 * The viewer's open pull requests, last updated first, with what makes one a task: whether it conflicts with its
 * base, the checks of its head commit, and whether a review thread is unresolved (the first 100 threads).
 */
export const SUGGESTED_PULL_REQUESTS = `query SuggestedPullRequests($first: Int!) {
  viewer {
    pullRequests(first: $first, states: [OPEN], orderBy: {field: UPDATED_AT, direction: DESC}) {
      nodes {
        number
        title
        mergeable
        repository { nameWithOwner isArchived }
        commits(last: 1) { nodes { commit { statusCheckRollup { state } } } }
        reviewThreads(first: 100) { nodes { isResolved } }
      }
    }
  }
}`;

interface PullRequestNode {
  number: number;
  title: string;
  mergeable: 'MERGEABLE' | 'CONFLICTING' | 'UNKNOWN';
  repository: { nameWithOwner: string; isArchived: boolean };
  commits: { nodes: { commit: { statusCheckRollup: { state: string } | null } }[] };
  reviewThreads: { nodes: { isResolved: boolean }[] };
}

interface SuggestedPullRequestsData {
  viewer: { pullRequests: { nodes: (PullRequestNode | null)[] } };
}

const FAILED_CHECKS = new Set(['FAILURE', 'ERROR']);

/**
 * What an open pull request asks of its author, the first that holds as OpenHands orders them: its merge conflicts,
 * then its failing checks, then its unresolved review comments; else it is an open pull request.
 */
export function pullRequestTask(pull: PullRequestNode): TaskType {
  if (pull.mergeable === 'CONFLICTING') return 'MERGE_CONFLICTS';
  const checks = pull.commits.nodes[0]?.commit.statusCheckRollup?.state;
  if (checks && FAILED_CHECKS.has(checks)) return 'FAILING_CHECKS';
  if (pull.reviewThreads.nodes.some((thread) => !thread.isResolved)) return 'UNRESOLVED_COMMENTS';
  return 'OPEN_PR';
}

/** The viewer's open pull requests in repositories that are not archived (the first 100), each as its task. */
export async function gitHubPullRequestTasks(http: ProviderHttp): Promise<SuggestedTask[]> {
  const data = await gitHubGraphQl<SuggestedPullRequestsData>(http, SUGGESTED_PULL_REQUESTS, { first: 100 });
  return data.viewer.pullRequests.nodes
    .filter((pull): pull is PullRequestNode => pull !== null && !pull.repository.isArchived)
    .map((pull) => ({
      git_provider: 'github',
      task_type: pullRequestTask(pull),
      repo: pull.repository.nameWithOwner,
      issue_number: pull.number,
      title: pull.title,
    }));
}
