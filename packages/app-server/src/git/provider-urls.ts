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

/** The environment variable a provider's token is given to the conversation as (`GITHUB_TOKEN`, ...). */
export function tokenVariable(provider: string): string {
  return `${provider.toUpperCase()}_TOKEN`;
}
