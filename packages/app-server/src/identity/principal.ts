import type { OrgRole } from '@bosun/protocol';

/** Who a request acts as, once authenticated. */
export interface Principal {
  userId: string;
  /** How the request proved it: an API key (`apiKeyId`) or a browser session (`sessionId`). */
  via: 'api_key' | 'session';
  apiKeyId?: string;
  sessionId?: string;
  /** The organization the request acts in (`X-Org-Id`, or the one its key is bound to), with the user's role. */
  org?: { id: string; role: OrgRole };
}
