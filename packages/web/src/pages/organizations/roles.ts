import type { OrgRole } from '@bosun/protocol';

export const ROLE_LABEL: Record<OrgRole, string> = { owner: 'Owner', admin: 'Admin', member: 'Member' };
export const ROLE_TONE: Record<OrgRole, 'info' | 'success' | 'neutral'> = {
  owner: 'info',
  admin: 'success',
  member: 'neutral',
};

/** What a page navigating to `/organizations` says happened (an organization deleted or left). */
export interface OrganizationsNotice {
  notice?: string;
}
