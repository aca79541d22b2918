import type { Marketplace, MarketplaceList, OrgMe } from '@bosun/protocol';
import { useQuery } from '@tanstack/react-query';
import { useApiContext } from '../../api/client.tsx';

/** Query keys of the Skills & Plugins tab (each under the organization the person acts in). */
export const skillsKeys = {
  all: ['marketplaces'] as const,
  marketplaces: (orgId: string | null) => ['marketplaces', 'list', orgId] as const,
  table: (orgId: string | null) => ['marketplaces', 'skills-and-plugins', orgId] as const,
  membership: (orgId: string) => ['org-membership', orgId] as const,
};

/** The marketplaces composed for the organization the person acts in (none: their own and the instance's). */
export function useMarketplaces() {
  const { api, orgId } = useApiContext();
  return useQuery<MarketplaceList>({
    queryKey: skillsKeys.marketplaces(orgId),
    queryFn: () => api.get('/api/v1/marketplaces', { query: { org_id: orgId || undefined } }),
  });
}

/** The person's role in the organization they act in, and what it lets them do (undefined: no organization). */
export function useActingMembership() {
  const { api, orgId } = useApiContext();
  return useQuery<OrgMe>({
    queryKey: skillsKeys.membership(orgId ?? ''),
    queryFn: () => api.get('/api/v1/organizations/{org_id}/me', { params: { org_id: orgId ?? '' } }),
    enabled: orgId !== null,
  });
}

/**
 * What a write of `marketplace` names: an organization's entry its organization (`org_id`, in the query) and the
 * organization entries' version read (`expected_version`, which the write is checked against); others neither.
 */
export function orgWrite(
  marketplace: Marketplace,
  orgVersion: string | null,
): { org_id?: string; expected_version?: string } {
  if (marketplace.scope !== 'organization') return {};
  return {
    ...(marketplace.org_id ? { org_id: marketplace.org_id } : {}),
    ...(orgVersion ? { expected_version: orgVersion } : {}),
  };
}

/** The first 7 characters of a commit. */
export const shortSha = (sha: string | null | undefined): string => (sha ? sha.slice(0, 7) : '');
