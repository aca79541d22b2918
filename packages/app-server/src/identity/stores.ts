import type { OrgRole } from '@bosun/protocol';

/**
 * The parts of the data layer's repositories that identity and its routes use (`UsersRepository`,
 * `ApiKeysRepository`, `SessionsRepository`, `OrganizationsRepository`): the repositories make and hash the
 * keys and tokens, and keep the last-owner rule in a transaction.
 */

export interface User {
  id: string;
  email: string | null;
  name: string | null;
  created_at: string;
}

export interface UsersStore {
  get(id: string): Promise<User | undefined>;
  byEmail(email: string): Promise<User | undefined>;
  ensureOwner(profile?: { email?: string | null; name?: string | null }): Promise<{ user: User; created: boolean }>;
}

export interface ApiKeyRecord {
  id: string;
  name: string;
  org_id: string | null;
  display_prefix: string;
  created_at: string;
  expires_at: string | null;
}

export interface ApiKeysStore {
  create(input: {
    userId: string;
    name: string;
    orgId?: string | null;
    expiresAt?: string | null;
  }): Promise<{ key: string; record: ApiKeyRecord }>;
  authenticate(key: string): Promise<{ keyId: string; userId: string; orgId?: string } | undefined>;
  list(userId: string): Promise<ApiKeyRecord[]>;
  delete(userId: string, keyId: string): Promise<boolean>;
}

export interface SessionsStore {
  createSignInToken(userId: string, ttlMs: number): Promise<string>;
  redeem(token: string): Promise<string | undefined>;
  createSession(userId: string, ttlMs: number): Promise<{ token: string; session: { id: string } }>;
  sessionUser(token: string): Promise<{ sessionId: string; userId: string; expiresAt: string } | undefined>;
  revoke(userId: string, sessionId: string): Promise<boolean>;
}

export interface Organization {
  id: string;
  name: string;
  created_at: string;
}

export interface Member {
  user_id: string;
  email: string | null;
  name: string | null;
  role: OrgRole;
  joined_at: string;
}

export interface OrganizationsStore {
  create(input: { name: string; ownerUserId: string }): Promise<Organization & { role: OrgRole }>;
  get(orgId: string): Promise<Organization | undefined>;
  listForUser(userId: string): Promise<(Organization & { role: OrgRole })[]>;
  role(orgId: string, userId: string): Promise<OrgRole | undefined>;
  members(orgId: string): Promise<Member[]>;
  addMember(orgId: string, userId: string, role: OrgRole): Promise<void>;
  setRole(orgId: string, userId: string, role: OrgRole): Promise<boolean>;
  removeMember(orgId: string, userId: string): Promise<boolean>;
}

/** What authentication reads. */
export interface IdentityStores {
  apiKeys: Pick<ApiKeysStore, 'authenticate'>;
  sessions: Pick<SessionsStore, 'sessionUser'>;
  organizations: Pick<OrganizationsStore, 'role'>;
}
