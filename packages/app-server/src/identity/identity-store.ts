import type { IdentityLookup } from './principal.ts';

export interface User {
  id: string;
  email: string | null;
  name: string | null;
  createdAt: string;
}

export interface ApiKeyRecord {
  id: string;
  name: string;
  displayPrefix: string;
  orgId: string | null;
  createdAt: string;
  expiresAt: string | null;
}

/** Users, their API keys, browser sessions and one-time sign-in tokens (secrets stored by digest only). */
export interface IdentityStore extends IdentityLookup {
  user(id: string): Promise<User | undefined>;
  userByEmail(email: string): Promise<User | undefined>;
  /** The owner of the install, made on first start; undefined before. */
  instanceOwner(): Promise<User | undefined>;
  /** Makes the owner of the install if there is none yet; answers the owner and whether it was made now. */
  ensureInstanceOwner(): Promise<{ owner: User; created: boolean }>;
  createApiKey(
    userId: string,
    key: { name: string; digest: string; displayPrefix: string; orgId: string | null; expiresAt: string | null },
  ): Promise<ApiKeyRecord>;
  apiKeysOf(userId: string): Promise<ApiKeyRecord[]>;
  deleteApiKey(userId: string, id: string): Promise<boolean>;
  createSignInToken(userId: string, digest: string, expiresAt: string): Promise<void>;
  /** Deletes the token and answers its user, if it existed and had not expired: a token works once. */
  consumeSignInToken(digest: string, now: string): Promise<string | undefined>;
  createSession(userId: string, digest: string, expiresAt: string): Promise<void>;
  deleteSession(digest: string): Promise<void>;
}
