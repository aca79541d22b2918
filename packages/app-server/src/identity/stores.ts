import type { JsonObject, Repositories } from '../data/index.ts';

/**
 * The parts of the data layer's repositories that identity and its routes use: the repositories make and hash
 * keys and tokens, seal values, and keep the last-owner rule in a transaction.
 */
export type UsersStore = Pick<Repositories['users'], 'get' | 'byEmail' | 'ensureOwner'>;
export type ApiKeysStore = Pick<Repositories['apiKeys'], 'create' | 'authenticate' | 'list' | 'delete'>;
export type SessionsStore = Pick<
  Repositories['sessions'],
  'createSignInToken' | 'redeem' | 'createSession' | 'sessionUser' | 'revoke'
>;
export type OrganizationsStore = Pick<
  Repositories['organizations'],
  | 'create'
  | 'get'
  | 'rename'
  | 'delete'
  | 'listForUser'
  | 'role'
  | 'owners'
  | 'members'
  | 'countMembers'
  | 'addMember'
  | 'setRole'
  | 'removeMember'
>;
export type SecretsStore = Pick<Repositories['secrets'], 'create' | 'search' | 'get' | 'update' | 'delete' | 'value'>;
export type ProviderTokensStore = Pick<Repositories['providerTokens'], 'set' | 'list' | 'delete' | 'token'>;
export type SettingsStore = Pick<Repositories['settings'], 'get' | 'update'>;

/** A user's stored settings: one JSON object, sealed at rest (it holds the API keys). */
export type StoredSettings = JsonObject;

export type { ApiKeyRecord, Member, OrgDeletionRecord, Organization, SecretInfo, User } from '../data/index.ts';

/** What authentication reads. */
export interface IdentityStores {
  apiKeys: Pick<ApiKeysStore, 'authenticate'>;
  sessions: Pick<SessionsStore, 'sessionUser'>;
  organizations: Pick<OrganizationsStore, 'role'>;
}
