import { InputError } from '@bosun/http';
import { HostRefusedError } from '../git/host-guard.ts';

/** `github:`, `gitlab:` and `bitbucket:` sources name a provider; any other source names a host of its own. */
const PROVIDER_SOURCE = /^(github|gitlab|bitbucket):(?!\/\/)/;

/** What to change when the server will not fetch from a host (a 422's message is at most 300 characters). */
const FIXES: [RegExp, string][] = [
  [
    /is not a configured Git provider/,
    'set git_gitlab_url (or git_github_url, git_bitbucket_url; --git-gitlab-url, BOSUN_GIT_GITLAB_URL) to its base URL',
  ],
  [/internal address/, 'set git_allow_private_hosts (--git-allow-private-hosts) to fetch from this network'],
  [/not .* URLs/, 'register its http(s):// URL'],
];

/**
 * A source on a host of its own, checked when it is registered rather than at every conversation start: the host
 * must be a configured Git provider the server may reach, and the repository must answer (`resolve`: the commit
 * `ref` names, fetched as the user). Returns that commit; a 422 at `at` names what to change. Provider sources
 * (`github:acme/tools`) are left to the start: their provider is configured by definition.
 */
export async function checkedSource(
  resolve: () => Promise<string>,
  source: string,
  ref: string | null,
  at: (string | number)[],
): Promise<string | undefined> {
  if (PROVIDER_SOURCE.test(source)) return undefined;
  try {
    return await resolve();
  } catch (error) {
    const message = (error as Error).message;
    const fix = FIXES.find(([pattern]) => pattern.test(message))?.[1];
    const refMissing = ref !== null && /has no branch or tag/.test(message);
    const msg =
      error instanceof HostRefusedError
        ? `${message}${fix ? `: ${fix}` : ''}`
        : refMissing
          ? message
          : `cannot reach ${source}: ${message}`;
    throw new InputError([{ loc: [...at, refMissing ? 'ref' : 'source'], msg, type: 'value_error' }]);
  }
}
