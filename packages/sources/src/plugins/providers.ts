import type { GitProviders } from '../git/index.ts';

/** The provider base URLs configured by `BOSUN_GIT_GITHUB_URL`, `BOSUN_GIT_GITLAB_URL`, `BOSUN_GIT_BITBUCKET_URL`. */
export function gitProvidersFromEnv(env: Record<string, string | undefined>): GitProviders {
  const providers: GitProviders = {};
  if (env.BOSUN_GIT_GITHUB_URL) providers.github = env.BOSUN_GIT_GITHUB_URL;
  if (env.BOSUN_GIT_GITLAB_URL) providers.gitlab = env.BOSUN_GIT_GITLAB_URL;
  if (env.BOSUN_GIT_BITBUCKET_URL) providers.bitbucket = env.BOSUN_GIT_BITBUCKET_URL;
  return providers;
}
