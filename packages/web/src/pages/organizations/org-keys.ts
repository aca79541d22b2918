/** The query keys of one organization's page. */
export const orgKeys = {
  org: (id: string) => ['organization', id] as const,
  me: (id: string) => ['org-membership', id] as const,
  members: (id: string) => ['organization', id, 'members'] as const,
  marketplaces: (id: string) => ['marketplaces', 'organization', id] as const,
};
