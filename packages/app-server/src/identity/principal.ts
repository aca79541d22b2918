import type { OrgRole } from '@bosun/protocol';

/** Who a request acts as, once authenticated. */
export interface Principal {
  userId: string;
  /** How the request proved it: an API key (`apiKeyId`) or a browser session. */
  via: 'api_key' | 'session';
  apiKeyId?: string;
  /** The organization the request acts in (`X-Org-Id`, or the one its key is bound to), with the user's role. */
  org?: { id: string; role: OrgRole };
}

/** What authentication needs to know, by the digest of a presented secret. */
export interface IdentityLookup {
  apiKeyByDigest(
    digest: string,
  ): Promise<{ id: string; userId: string; orgId: string | null; expiresAt: string | null } | undefined>;
  sessionByDigest(digest: string): Promise<{ userId: string; expiresAt: string } | undefined>;
  roleIn(orgId: string, userId: string): Promise<OrgRole | undefined>;
}
