/** Where a repository reference points: `<provider>:<owner>/<repo>` or a Git URL. */

/** Base URLs of the providers of `<provider>:<owner>/<repo>` sources. */
export interface GitProviders {
  github?: string;
  gitlab?: string;
  bitbucket?: string;
}

export type GitProvider = keyof GitProviders;

export const DEFAULT_PROVIDERS: Required<GitProviders> = {
  github: 'https://github.com',
  gitlab: 'https://gitlab.com',
  bitbucket: 'https://bitbucket.org',
};

/** A source that is not a Git repository reference. */
export class GitSourceError extends Error {
  override name = 'GitSourceError';
}

const PROVIDER_SOURCE = /^(github|gitlab|bitbucket):(.+)$/;
const PATH_SEGMENT = /^[A-Za-z0-9_.-]+$/;
const GIT_URL = /^(https?|ssh|git|file):\/\//;
const SCP_LIKE = /^[A-Za-z0-9_.-]+@[A-Za-z0-9.-]+:[^/]/;

/** The base URL of each provider: the defaults, overridden by `providers`. */
export function providerBases(providers: GitProviders = {}): Required<GitProviders> {
  return { ...DEFAULT_PROVIDERS, ...definedOnly(providers) };
}

/**
 * The Git URL of a source: `github:owner/repo` becomes `<github base>/owner/repo.git` (GitLab sources may name
 * nested groups); a Git URL (https, http, ssh, git, file, or `user@host:path`) is taken as it is.
 */
export function repositoryUrl(source: string, providers: GitProviders = {}): string {
  const trimmed = source.trim();
  const match = PROVIDER_SOURCE.exec(trimmed);
  if (match) {
    const provider = match[1] as GitProvider;
    const segments = (match[2] as string).replace(/\.git$/, '').split('/');
    const nested = provider === 'gitlab';
    if (
      segments.length < 2 ||
      (!nested && segments.length > 2) ||
      segments.some((segment) => !PATH_SEGMENT.test(segment) || segment === '.' || segment === '..')
    ) {
      throw new GitSourceError(
        `'${source}' is not a ${provider} repository: expected ${provider}:<owner>/<repo>${nested ? ' (or <group>/<subgroup>/<repo>)' : ''}`,
      );
    }
    const base = providerBases(providers)[provider].replace(/\/+$/, '');
    return `${base}/${segments.join('/')}.git`;
  }
  if (GIT_URL.test(trimmed) || SCP_LIKE.test(trimmed)) return trimmed;
  throw new GitSourceError(
    `'${source}' is not a repository: use <provider>:<owner>/<repo> (github, gitlab, bitbucket) or a Git URL`,
  );
}

function definedOnly(providers: GitProviders): GitProviders {
  return Object.fromEntries(Object.entries(providers).filter(([, value]) => typeof value === 'string' && value));
}
