import { PROVIDER_TYPES, type ProviderType } from '@bosun/protocol';

// The Git providers of the sign-ins through an OpenID Connect issuer's identity providers (`oidc_git_providers`):
// here, below the configuration that validates the setting and the sign-in that reads it.

/** The provider types a sign-in's token is stored as (`enterprise_sso` is no Git host). */
const GIT_TYPES = PROVIDER_TYPES.filter((type) => type !== 'enterprise_sso');

/** One `oidc_git_providers` entry: `alias=type`, `alias=type@host`, or `alias=none`. */
export const GIT_PROVIDER_ENTRY = `^[A-Za-z0-9_.-]{1,64}=(none|(${GIT_TYPES.join('|')})(@[^\\s@,]+)?)$`;

/** The Git provider an identity provider's sign-in brings a token of, and the host it is stored with. */
export interface SignInGitProvider {
  provider: ProviderType;
  /** Null: the provider's configured URL (`git_github_url`...). */
  host: string | null;
}

function entriesOf(entries: readonly string[]): Map<string, SignInGitProvider | null> {
  const map = new Map<string, SignInGitProvider | null>();
  for (const entry of entries) {
    const [alias = '', target = ''] = entry.split('=', 2);
    const at = target.indexOf('@');
    const type = (at < 0 ? target : target.slice(0, at)) as ProviderType | 'none';
    map.set(alias, type === 'none' ? null : { provider: type, host: at < 0 ? null : target.slice(at + 1) });
  }
  return map;
}

/**
 * The Git provider of identity provider `alias` (its `oidc_git_providers` entry, else the provider type it is
 * named after); undefined: its sign-ins bring no Git token (an entry `alias=none`, or an alias named otherwise).
 */
export function gitProviderOfAlias(alias: string, entries: readonly string[]): SignInGitProvider | undefined {
  const given = entriesOf(entries);
  if (given.has(alias)) return given.get(alias) ?? undefined;
  return (GIT_TYPES as readonly string[]).includes(alias) ? { provider: alias as ProviderType, host: null } : undefined;
}

/** What `oidc_git_providers` says wrongly beside `oidc_providers`: one line per problem, naming the key. */
export function gitProviderProblems(entries: readonly string[], aliases: readonly string[]): string[] {
  const problems: string[] = [];
  const aliasesGiven = entries.map((entry) => entry.split('=', 1)[0] as string);
  for (const alias of new Set(aliasesGiven)) {
    if (!aliases.includes(alias)) problems.push(`oidc_git_providers: ${alias} is not one of oidc_providers`);
    if (aliasesGiven.filter((given) => given === alias).length > 1) {
      problems.push(`oidc_git_providers: ${alias} is given more than once`);
    }
  }
  for (const alias of aliases) {
    const git = gitProviderOfAlias(alias, entries);
    if (git?.provider === 'bitbucket_data_center' && git.host === null) {
      problems.push(`oidc_git_providers: ${alias} needs its host (${alias}=bitbucket_data_center@<host>, or =none)`);
    }
  }
  return problems;
}
