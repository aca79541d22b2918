import type { ProviderType, Settings } from '@bosun/protocol';

/** The providers whose repositories can be browsed, in the order they are offered. */
export const BROWSABLE: readonly ProviderType[] = ['github', 'gitlab', 'bitbucket', 'bitbucket_data_center'];

export const PROVIDER_NAMES: Record<string, string> = {
  github: 'GitHub',
  gitlab: 'GitLab',
  bitbucket: 'Bitbucket',
  bitbucket_data_center: 'Bitbucket Data Center',
  forgejo: 'Forgejo',
  azure_devops: 'Azure DevOps',
  enterprise_sso: 'Enterprise SSO',
};

/** The browsable providers the caller stored a token for. */
export function connectedProviders(settings: Settings | undefined): ProviderType[] {
  const set = settings?.provider_tokens_set ?? {};
  return BROWSABLE.filter((provider) => provider in set);
}
