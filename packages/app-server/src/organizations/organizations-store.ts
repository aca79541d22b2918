import type { OrgRole } from '@bosun/protocol';

export interface Organization {
  id: string;
  name: string;
  contactName: string | null;
  contactEmail: string | null;
  createdAt: string;
}

export interface Member {
  userId: string;
  email: string | null;
  name: string | null;
  role: OrgRole;
  joinedAt: string;
}

export interface Page<T> {
  items: T[];
  nextPageId: string | null;
}

/**
 * Organizations and memberships. The store keeps the rule that needs a transaction: changing or removing the
 * last owner throws a `DataConflictError` (409).
 */
export interface OrganizationsStore {
  /** A new organization whose owner is `ownerId`. */
  create(
    ownerId: string,
    org: { name: string; contactName: string | null; contactEmail: string | null },
  ): Promise<Organization>;
  get(orgId: string): Promise<Organization | undefined>;
  /** The user's organizations, each with the user's role. */
  listOf(userId: string, page: { pageId?: string; limit: number }): Promise<Page<Organization & { role: OrgRole }>>;
  members(orgId: string, page: { pageId?: string; limit: number }): Promise<Page<Member>>;
  member(orgId: string, userId: string): Promise<Member | undefined>;
  /** Throws a `DataConflictError` if the user is already a member. */
  addMember(orgId: string, userId: string, role: OrgRole): Promise<Member>;
  setRole(orgId: string, userId: string, role: OrgRole): Promise<Member | undefined>;
  removeMember(orgId: string, userId: string): Promise<boolean>;
}
