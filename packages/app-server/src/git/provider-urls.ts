/** Base URLs of the Git providers repositories are cloned from (`<base>/<owner>/<repo>.git`). */
export interface GitProviderUrls {
  github: string;
  gitlab: string;
  bitbucket: string;
}

export const DEFAULT_GIT_URLS: GitProviderUrls = {
  github: 'https://github.com',
  gitlab: 'https://gitlab.com',
  bitbucket: 'https://bitbucket.org',
};

/** The Git providers' base URLs of the configuration (`git_github_url`, ...), else the public hosts. */
export function gitUrlsOf(config: { git_github_url?: string; git_gitlab_url?: string; git_bitbucket_url?: string }) {
  const urls: GitProviderUrls = {
    github: config.git_github_url ?? DEFAULT_GIT_URLS.github,
    gitlab: config.git_gitlab_url ?? DEFAULT_GIT_URLS.gitlab,
    bitbucket: config.git_bitbucket_url ?? DEFAULT_GIT_URLS.bitbucket,
  };
  return urls;
}

/** The environment variable a provider's token is given to the conversation as (`GITHUB_TOKEN`, ...). */
export function tokenVariable(provider: string): string {
  return `${provider.toUpperCase()}_TOKEN`;
}
