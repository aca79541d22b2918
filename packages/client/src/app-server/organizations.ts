import type {
  EditResponse,
  OrgCreate,
  OrgDeletion,
  OrgMe,
  OrgMemberAdd,
  OrgMemberPage,
  OrgMemberResponse,
  OrgPage,
  OrgResponse,
  OrgRole,
  OrgUpdate,
} from '@bosun/protocol';
import type { CallOptions } from '../http.ts';
import { AppServerAccount, type PageQuery } from './account.ts';

/**
 * The app server's organization routes: the caller's organizations, their members and roles, and their
 * administration (rename, delete, the caller's permissions). `AppServerClient` has them all.
 */
export abstract class AppServerOrganizations extends AppServerAccount {
  listOrganizations(query: PageQuery = {}, options?: CallOptions): Promise<OrgPage> {
    return this.call('listOrganizations', { ...options, query: { ...query } });
  }
  createOrganization(org: OrgCreate, options?: CallOptions): Promise<OrgResponse> {
    return this.call('createOrganization', { ...options, body: org });
  }
  getOrganization(orgId: string, options?: CallOptions): Promise<OrgResponse> {
    return this.call('getOrganization', { ...options, params: { org_id: orgId } });
  }
  listMembers(orgId: string, query: PageQuery = {}, options?: CallOptions): Promise<OrgMemberPage> {
    return this.call('listMembers', { ...options, params: { org_id: orgId }, query: { ...query } });
  }
  addMember(orgId: string, member: OrgMemberAdd, options?: CallOptions): Promise<OrgMemberResponse> {
    return this.call('addMember', { ...options, params: { org_id: orgId }, body: member });
  }
  setMemberRole(orgId: string, userId: string, role: OrgRole, options?: CallOptions): Promise<OrgMemberResponse> {
    const params = { org_id: orgId, user_id: userId };
    return this.call('setMemberRole', { ...options, params, body: { role } });
  }
  removeMember(orgId: string, userId: string, options?: CallOptions): Promise<EditResponse> {
    return this.call('removeMember', { ...options, params: { org_id: orgId, user_id: userId } });
  }
  leaveOrganization(orgId: string, options?: CallOptions): Promise<EditResponse> {
    return this.call('leaveOrganization', { ...options, params: { org_id: orgId } });
  }
  /** Renames it: owners and admins (403 for members). */
  renameOrganization(orgId: string, update: OrgUpdate, options?: CallOptions): Promise<OrgResponse> {
    return this.call('renameOrganization', { ...options, params: { org_id: orgId }, body: update });
  }
  /** Deletes it with its memberships, bound API keys and marketplaces: owners only. Conversations stay. */
  deleteOrganization(orgId: string, options?: CallOptions): Promise<OrgDeletion> {
    return this.call('deleteOrganization', { ...options, params: { org_id: orgId } });
  }
  /** The caller's role in it and what the role lets them do (`can_manage_members`, `can_delete`, ...). */
  myMembership(orgId: string, options?: CallOptions): Promise<OrgMe> {
    return this.call('myMembership', { ...options, params: { org_id: orgId } });
  }
  /** How many members it has; with `email`, those whose address contains it. */
  countMembers(orgId: string, query: { email?: string } = {}, options?: CallOptions): Promise<number> {
    return this.call('countMembers', { ...options, params: { org_id: orgId }, query: { ...query } });
  }
}
