import type {
  ApiKey,
  ApiKeyCreate,
  ApiKeyCreated,
  CustomSecretCreate,
  CustomSecretPage,
  CustomSecretUpdate,
  CustomSecretWithoutValue,
  EditResponse,
  OrgCreate,
  OrgMemberAdd,
  OrgMemberPage,
  OrgMemberResponse,
  OrgPage,
  OrgResponse,
  OrgRole,
  POSTProviderModel,
  Settings,
  SettingsUpdate,
  UserInfo,
} from '@bosun/protocol';
import { type CallOptions, type HttpClient, type QueryValue, pathOf } from '../http.ts';
import { ServerProbes } from '../server-probes.ts';
import { ACCOUNT_OPERATIONS } from './account-operations.ts';

export interface PageQuery {
  page_id?: string;
  limit?: number;
}

type Call = CallOptions & { params?: Record<string, string>; query?: Record<string, QueryValue>; body?: unknown };

/**
 * The app server's account routes, typed with the protocol's shapes: the caller, their API keys, settings,
 * secrets (values go in, never out) and organizations. `AppServerClient` has them all.
 */
export abstract class AppServerAccount extends ServerProbes {
  private account<T>(name: keyof typeof ACCOUNT_OPERATIONS, { params, ...call }: Call = {}): Promise<T> {
    const { method, path } = ACCOUNT_OPERATIONS[name];
    return this.http.json<T>({ ...call, method, path: pathOf(path, params) });
  }

  me(options?: CallOptions): Promise<UserInfo> {
    return this.account('me', options);
  }
  signOut(options?: CallOptions): Promise<EditResponse> {
    return this.account('signOut', options);
  }
  listApiKeys(options?: CallOptions): Promise<ApiKey[]> {
    return this.account('listApiKeys', options);
  }
  /** The answer holds the key itself, this once. */
  createApiKey(body: ApiKeyCreate = {}, options?: CallOptions): Promise<ApiKeyCreated> {
    return this.account('createApiKey', { ...options, body });
  }
  deleteApiKey(keyId: string, options?: CallOptions): Promise<EditResponse> {
    return this.account('deleteApiKey', { ...options, params: { key_id: keyId } });
  }
  getSettings(options?: CallOptions): Promise<Settings> {
    return this.account('getSettings', options);
  }
  updateSettings(update: SettingsUpdate, options?: CallOptions): Promise<EditResponse> {
    return this.account('updateSettings', { ...options, body: update });
  }
  createSecret(secret: CustomSecretCreate, options?: CallOptions): Promise<CustomSecretWithoutValue> {
    return this.account('createSecret', { ...options, body: secret });
  }
  searchSecrets(query: PageQuery & { name__contains?: string } = {}, options?: CallOptions) {
    return this.account<CustomSecretPage>('searchSecrets', { ...options, query: { ...query } });
  }
  updateSecret(name: string, change: CustomSecretUpdate, options?: CallOptions): Promise<CustomSecretWithoutValue> {
    return this.account('updateSecret', { ...options, params: { secret_id: name }, body: change });
  }
  deleteSecret(name: string, options?: CallOptions): Promise<EditResponse> {
    return this.account('deleteSecret', { ...options, params: { secret_id: name } });
  }
  storeGitProviderTokens(tokens: POSTProviderModel, options?: CallOptions): Promise<EditResponse> {
    return this.account('storeGitProviderTokens', { ...options, body: tokens });
  }
  deleteGitProviderTokens(options?: CallOptions): Promise<EditResponse> {
    return this.account('deleteGitProviderTokens', options);
  }
  listOrganizations(query: PageQuery = {}, options?: CallOptions): Promise<OrgPage> {
    return this.account('listOrganizations', { ...options, query: { ...query } });
  }
  createOrganization(org: OrgCreate, options?: CallOptions): Promise<OrgResponse> {
    return this.account('createOrganization', { ...options, body: org });
  }
  getOrganization(orgId: string, options?: CallOptions): Promise<OrgResponse> {
    return this.account('getOrganization', { ...options, params: { org_id: orgId } });
  }
  listMembers(orgId: string, query: PageQuery = {}, options?: CallOptions): Promise<OrgMemberPage> {
    return this.account('listMembers', { ...options, params: { org_id: orgId }, query: { ...query } });
  }
  addMember(orgId: string, member: OrgMemberAdd, options?: CallOptions): Promise<OrgMemberResponse> {
    return this.account('addMember', { ...options, params: { org_id: orgId }, body: member });
  }
  setMemberRole(orgId: string, userId: string, role: OrgRole, options?: CallOptions): Promise<OrgMemberResponse> {
    const params = { org_id: orgId, user_id: userId };
    return this.account('setMemberRole', { ...options, params, body: { role } });
  }
  removeMember(orgId: string, userId: string, options?: CallOptions): Promise<EditResponse> {
    return this.account('removeMember', { ...options, params: { org_id: orgId, user_id: userId } });
  }
  leaveOrganization(orgId: string, options?: CallOptions): Promise<EditResponse> {
    return this.account('leaveOrganization', { ...options, params: { org_id: orgId } });
  }
}
