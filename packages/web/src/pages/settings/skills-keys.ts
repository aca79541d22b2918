import type { MarketplaceList, OrgMe } from '@bosun/protocol';
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
    queryFn: () => api.listMarketplaces(orgId ?? undefined),
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

/** The first 7 characters of a commit. */
export const shortSha = (sha: string | null | undefined): string => (sha ? sha.slice(0, 7) : '');
