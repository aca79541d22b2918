import { type Static, Type } from '@sinclair/typebox';
import { namedEnum, nullable, ref, strictObject } from '../schema/builders.ts';
import { ProviderType, nextPageId, pageOf } from './common.ts';

/** Browsing the caller's Git provider (OpenHands' `/git/.../search` routes and `/users/git-organizations`). */

export const SORT_ORDERS = [
  'stars-desc',
  'stars-asc',
  'forks-desc',
  'forks-asc',
  'updated-desc',
  'updated-asc',
] as const;
export const SortOrder = namedEnum(
  'SortOrder',
  'How repositories are sorted: by stars, forks or last update, descending or ascending.',
  SORT_ORDERS,
);
export type SortOrder = Static<typeof SortOrder>;

export const OwnerType = namedEnum('OwnerType', 'Who owns a repository: a user or an organization.', [
  'user',
  'organization',
]);
export type OwnerType = Static<typeof OwnerType>;

export const Repository = strictObject('Repository', 'A repository of the caller’s Git provider.', {
  id: Type.String({ description: 'The provider’s id of the repository.' }),
  full_name: Type.String({
    description:
      '`owner/repo` (GitLab: the project’s full path; Bitbucket: `workspace/repo`, Data Center: `PROJECT/repo`).',
  }),
  git_provider: ref(ProviderType),
  is_public: Type.Boolean(),
  stargazers_count: nullable(Type.Integer()),
  link_header: nullable(Type.String({ description: 'Always null (the paging is `next_page_id`).' })),
  pushed_at: nullable(Type.String({ description: 'When it last changed, as the provider says.' })),
  owner_type: nullable(ref(OwnerType)),
  main_branch: nullable(Type.String({ description: 'Its default branch.' })),
});
export type Repository = Static<typeof Repository>;

export const RepositoryPage = pageOf('RepositoryPage', 'A page of the caller’s repositories.', Repository);
export type RepositoryPage = Static<typeof RepositoryPage>;

export const Branch = strictObject('Branch', 'A branch of a repository.', {
  name: Type.String(),
  commit_sha: Type.String({ description: 'The commit it points to.' }),
  protected: Type.Boolean(),
  last_push_date: nullable(Type.String({ description: 'Its commit’s date where the provider gives it.' })),
});
export type Branch = Static<typeof Branch>;

export const BranchPage = pageOf('BranchPage', 'A page of a repository’s branches.', Branch);
export type BranchPage = Static<typeof BranchPage>;

export const InstallationPage = strictObject(
  'InstallationPage',
  'A page of the caller’s installations (GitHub App installations; GitLab: groups; Bitbucket: workspaces, Data Center: projects), by id (Bitbucket: slug or key).',
  {
    items: Type.Array(Type.String()),
    next_page_id: nextPageId(),
  },
);
export type InstallationPage = Static<typeof InstallationPage>;

export const TASK_TYPES = [
  'MERGE_CONFLICTS',
  'FAILING_CHECKS',
  'UNRESOLVED_COMMENTS',
  'OPEN_ISSUE',
  'OPEN_PR',
] as const;
export const TaskType = namedEnum('TaskType', 'What a suggested task is about.', TASK_TYPES);
export type TaskType = Static<typeof TaskType>;

export const SuggestedTask = strictObject('SuggestedTask', 'Something the caller could work on next.', {
  git_provider: ref(ProviderType),
  task_type: ref(TaskType),
  repo: Type.String({ description: 'The repository, `owner/repo`.' }),
  issue_number: Type.Integer({ description: 'The issue’s or pull (merge) request’s number in it.' }),
  title: Type.String(),
});
export type SuggestedTask = Static<typeof SuggestedTask>;

export const SuggestedTaskPage = pageOf(
  'SuggestedTaskPage',
  'A page of suggested tasks: the caller’s open pull (merge) requests, then the open issues assigned to them.',
  SuggestedTask,
);
export type SuggestedTaskPage = Static<typeof SuggestedTaskPage>;

export const GitOrganizationsResponse = strictObject(
  'GitOrganizationsResponse',
  'The organizations (GitLab: groups; Bitbucket: workspaces, Data Center: projects) the caller belongs to on their provider.',
  {
    provider: ref(ProviderType),
    organizations: Type.Array(Type.String()),
  },
);
export type GitOrganizationsResponse = Static<typeof GitOrganizationsResponse>;
