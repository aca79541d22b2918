import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type Credential, credentialOf } from './credentials.ts';
import type { Principal } from './principal.ts';
import type { IdentityStores } from './stores.ts';

declare module 'fastify' {
  interface FastifyRequest {
    principal?: Principal;
  }
  interface FastifyContextConfig {
    /** The route answers without credentials (the sign-in URL). */
    public?: boolean;
  }
}

const ORG_HEADER = 'x-org-id';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Why a request is not authenticated: what a 401 says. */
const UNAUTHENTICATED = 'Not authenticated: send an API key (Authorization: Bearer sk-bosun-...) or sign in';
const INVALID = 'Invalid credentials: the API key or session is unknown, expired or revoked';

/**
 * Every `/api/v1` route but those marked `public` needs a credential: a request without one, or with a wrong,
 * expired or deleted one, is a 401. `X-Org-Id` then selects the organization the request acts in: 422 if it is
 * not a UUID, 403 if the user is not a member or the key is bound to another organization.
 */
export function installAuthentication(app: FastifyInstance, stores: IdentityStores): void {
  app.decorateRequest('principal', undefined);
  app.addHook('onRequest', async (request, reply) => {
    const route = request.routeOptions.url;
    if (!route?.startsWith('/api/v1/') || request.routeOptions.config.public) return;
    const credential = credentialOf(request.headers);
    if (!credential) return deny(reply, 401, UNAUTHENTICATED);
    const found = await identify(stores, credential);
    if (!found) return deny(reply, 401, INVALID);
    const selected = await selectOrganization(stores, request, found);
    if (typeof selected === 'string') {
      if (selected === 'malformed') {
        return reply.code(422).send({
          detail: [{ loc: ['header', 'X-Org-Id'], msg: 'Input should be a valid UUID', type: 'uuid_parsing' }],
        });
      }
      return deny(reply, 403, selected);
    }
    request.principal = selected;
  });
}

/** The principal a request acts as; only called by routes behind `installAuthentication`. */
export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw new Error(`route ${request.routeOptions.url} is not behind authentication`);
  return request.principal;
}

async function identify(
  stores: IdentityStores,
  credential: Credential,
): Promise<(Principal & { keyOrgId: string | null }) | undefined> {
  if (credential.kind === 'api_key') {
    const key = await stores.apiKeys.authenticate(credential.secret);
    return key && { userId: key.userId, via: 'api_key', apiKeyId: key.keyId, keyOrgId: key.orgId ?? null };
  }
  const session = await stores.sessions.sessionUser(credential.secret);
  return session && { userId: session.userId, via: 'session', sessionId: session.sessionId, keyOrgId: null };
}

async function selectOrganization(
  stores: IdentityStores,
  request: FastifyRequest,
  { keyOrgId, ...principal }: Principal & { keyOrgId: string | null },
): Promise<Principal | string> {
  const header = request.headers[ORG_HEADER];
  const asked = typeof header === 'string' && header.length > 0 ? header.trim() : undefined;
  if (asked !== undefined && !UUID.test(asked)) return 'malformed';
  if (asked !== undefined && keyOrgId !== null && asked.toLowerCase() !== keyOrgId) {
    return 'This API key is bound to another organization than X-Org-Id';
  }
  const orgId = asked?.toLowerCase() ?? keyOrgId;
  if (orgId === null) return principal;
  const role = await stores.organizations.role(orgId, principal.userId);
  if (!role) return 'Not a member of the organization selected by X-Org-Id';
  return { ...principal, org: { id: orgId, role } };
}

function deny(reply: FastifyReply, status: 401 | 403, detail: string) {
  if (status === 401) reply.header('WWW-Authenticate', 'Bearer');
  return reply.code(status).send({ detail });
}
