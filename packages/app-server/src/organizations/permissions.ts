import type { OrgMe, OrgRole } from '@bosun/protocol';
import { MANAGERS } from './member-rules.ts';

/** What a role lets a member do in their organization, as `GET /organizations/{org_id}/me` says it. */
export type OrgPermissions = Pick<
  OrgMe,
  'can_manage_members' | 'can_manage_owners' | 'can_manage_marketplaces' | 'can_rename' | 'can_delete' | 'can_leave'
>;

/**
 * The capabilities of `role` (the same rules the routes enforce: member-rules.ts, the marketplaces registry's
 * writers); `owners` is how many owners the organization has, for the last-owner rule of leaving.
 */
export function permissionsOf(role: OrgRole, owners: number): OrgPermissions {
  const manager = MANAGERS.includes(role);
  const owner = role === 'owner';
  return {
    can_manage_members: manager,
    can_manage_owners: owner,
    can_manage_marketplaces: manager,
    can_rename: manager,
    can_delete: owner,
    can_leave: !owner || owners > 1,
  };
}

/** The names of the capabilities that are true, without `can_` (OpenHands' `permissions` list). */
export const permissionNames = (permissions: OrgPermissions): string[] =>
  Object.entries(permissions)
    .filter(([, allowed]) => allowed)
    .map(([name]) => name.slice('can_'.length));

/** Why a rename is refused, for the 403's detail; undefined when allowed. */
export const refusalToRename = (role: OrgRole): string | undefined =>
  MANAGERS.includes(role) ? undefined : 'Only owners and admins rename an organization';

export const ONLY_OWNERS_DELETE = 'Only an owner deletes an organization';

/** Why a deletion is refused; undefined when allowed. */
export const refusalToDelete = (role: OrgRole): string | undefined =>
  role === 'owner' ? undefined : ONLY_OWNERS_DELETE;
