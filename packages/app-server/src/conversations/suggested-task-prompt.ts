import type { SuggestedTask } from '@bosun/protocol';

/** How a provider names its requests, its API, the token variable a sandbox has and its CI. */
interface ProviderTerms {
  request: string;
  short: string;
  api: string;
  token: string;
  ci: string;
}

const PULL = { request: 'pull request', short: 'PR' };
const TERMS: Partial<Record<SuggestedTask['git_provider'], ProviderTerms>> = {
  github: { ...PULL, api: 'GitHub API', token: 'GITHUB_TOKEN', ci: 'GitHub Actions checks' },
  gitlab: { request: 'merge request', short: 'MR', api: 'GitLab API', token: 'GITLAB_TOKEN', ci: 'CI pipelines' },
  bitbucket: { ...PULL, api: 'Bitbucket API', token: 'BITBUCKET_TOKEN', ci: 'Bitbucket Pipelines' },
  bitbucket_data_center: {
    ...PULL,
    api: 'Bitbucket Data Center API',
    token: 'BITBUCKET_DATA_CENTER_TOKEN',
    ci: 'Bitbucket Pipelines',
  },
};

/** Why a suggested task cannot make a first message; undefined when it can. */
export function suggestedTaskProblem(task: SuggestedTask): { field: string; msg: string } | undefined {
  if (!TERMS[task.git_provider]) {
    return { field: 'git_provider', msg: `Suggested tasks of ${task.git_provider} are not supported` };
  }
  if (task.task_type === 'OPEN_PR') {
    return { field: 'task_type', msg: 'An OPEN_PR task has no first message: send initial_message instead' };
  }
  return undefined;
}

/**
 * The first message of a conversation started from a suggested task, as OpenHands builds it (its suggested-task
 * prompts): where the work is, how to read it with the provider's API and the token the sandbox has, then what to
 * do for the task's type. `suggestedTaskProblem` must have been checked.
 */
export function suggestedTaskPrompt(task: SuggestedTask): string {
  const terms = TERMS[task.git_provider] as ProviderTerms;
  const { short, request, api, token } = terms;
  const issue = task.task_type === 'OPEN_ISSUE';
  const where = `You are working on ${issue ? 'Issue' : request} #${task.issue_number} in repository ${task.repo}.`;
  const read = `Use the ${api} with the ${token} environment variable to read the ${issue ? 'issue and its comments' : `${short} details`}.`;
  const checkout = `Check out the branch of that ${request} and look at its diff against the base branch to understand the ${short}'s intention.`;
  switch (task.task_type) {
    case 'MERGE_CONFLICTS':
      return `${where} Your goal is to fix its merge conflicts.\n${read}\n${checkout}\nThen resolve the merge conflicts; where the right resolution is unclear, read the history of the commits that conflict and resolve them accordingly.`;
    case 'FAILING_CHECKS':
      return `${where} Your goal is to fix its failing CI checks.\n${read}\n${checkout}\nThen use the ${api} to see which ${terms.ci} fail on the latest commit, reproduce the failures locally, fix them and push. Wait for the checks to run again (30 seconds at a time) and repeat while they still fail.`;
    case 'UNRESOLVED_COMMENTS':
      return `${where} Your goal is to resolve the reviewers' remaining comments.\n${read}\n${checkout}\nThen use the ${api} to read all the feedback on the ${short} so far; address whatever has not been addressed and push your commits to the same branch.`;
    default:
      return `${where} Your goal is to fix the issue.\n${read}\nThen check out a new branch and find out what needs to change.\nFinally, make the changes and open a ${request} that references the issue in its description.`;
  }
}
