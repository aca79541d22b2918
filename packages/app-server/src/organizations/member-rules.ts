import type { OrgRole } from '@bosun/protocol';

/** Who may change whom in an organization. The last-owner rule needs the store (it counts owners). */

/** The roles that manage an organization's members, name and marketplaces. */
export const MANAGERS: readonly OrgRole[] = ['owner', 'admin'];

/** Why a change is refused, for the 403's detail; undefined when allowed. */
export function refusalToAdd(actor: OrgRole, role: OrgRole): string | undefined {
  if (!MANAGERS.includes(actor)) return 'Only owners and admins add members';
  if (role === 'owner' && actor !== 'owner') return 'Only an owner makes another member owner';
  return undefined;
}

export function refusalToChangeRole(actor: OrgRole, current: OrgRole, next: OrgRole): string | undefined {
  if (!MANAGERS.includes(actor)) return 'Only owners and admins change roles';
  if ((current === 'owner' || next === 'owner') && actor !== 'owner') return 'Only an owner makes or unmakes an owner';
  return undefined;
}

/** Anyone may leave; removing someone else takes an admin, and removing an owner takes an owner. */
export function refusalToRemove(actor: OrgRole, target: OrgRole, self: boolean): string | undefined {
  if (self) return undefined;
  if (!MANAGERS.includes(actor)) return 'Only owners and admins remove members';
  if (target === 'owner' && actor !== 'owner') return 'Only an owner removes an owner';
  return undefined;
}
