import { HttpError } from '@bosun/http';
import type { LoginMethod } from '@bosun/protocol';
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ApiRoutes } from '../../http/api-routes.ts';
import { invalid, shape } from '../../http/replies.ts';
import { routeOptions } from '../../http/route-options.ts';
import { credentialOf, sessionCookie } from '../credentials.ts';
import {
  type OidcLogin,
  clearedIdTokenCookie,
  clearedPendingLoginCookie,
  pendingLoginCookieName,
  sameOriginPath,
} from '../oidc/index.ts';
import { signInRateLimited } from '../rate-limits.ts';
import { SESSION_TTL_MS } from '../sign-in.ts';
import type { IdentityRouteDeps } from './deps.ts';

const route = routeOptions('Authentication');

const returnTo = Type.Optional(
  Type.String({ maxLength: 2048, description: 'A path of this server to go to afterwards (default `/`).' }),
);
const LoginQuery = Type.Object(
  {
    provider: Type.Optional(
      Type.String({ maxLength: 64, description: 'An identity provider of `oidc_providers` (sent as kc_idp_hint).' }),
    ),
    return_to: returnTo,
  },
  { additionalProperties: false },
);
const CallbackQuery = Type.Object(
  {
    code: Type.Optional(Type.String({ maxLength: 4096 })),
    state: Type.Optional(Type.String({ maxLength: 512 })),
    error: Type.Optional(Type.String({ maxLength: 256 })),
    error_description: Type.Optional(Type.String({ maxLength: 1024 })),
  },
  // The issuer may add its own parameters (`iss`, `session_state`...).
  { additionalProperties: Type.String({ maxLength: 4096 }) },
);
const LogoutQuery = Type.Object({ return_to: returnTo }, { additionalProperties: false });

const redirect = (description: string) => ({ 302: Type.Null({ description }) });
const refusals = { 400: 'HTTPError', 403: 'HTTPError', 409: 'HTTPError', 429: 'HTTPError', 503: 'HTTPError' };
const NOT_CONFIGURED = 'Sign-in with an OpenID Connect issuer is not configured on this server (oidc_issuer_url)';

/**
 * Sign-in through the configured OpenID Connect issuer (the login route, the issuer's callback), the login methods a
 * web client shows, and a logout that ends the issuer's session too. Without an issuer the routes exist: login
 * answers 404 and the list is empty.
 */
export function oidcRoutes(deps: IdentityRouteDeps): ApiRoutes {
  return (app) => {
    const { oidc, secureCookies } = deps;
    const configured = (): OidcLogin => {
      if (!oidc) throw new HttpError(404, NOT_CONFIGURED);
      return oidc;
    };

    app.get(
      '/auth/providers',
      {
        config: { public: true },
        ...route('The ways to sign in a web client shows (empty: no issuer configured)', {
          security: [],
          response: { 200: shape('LoginMethodList') },
        }),
      },
      async (): Promise<LoginMethod[]> => oidc?.methods() ?? [],
    );

    app.get<{ Querystring: { provider?: string; return_to?: string } }>(
      '/auth/login',
      {
        config: { public: true },
        ...route('Sign in through the OpenID Connect issuer: redirects there (PKCE, state, nonce)', {
          security: [],
          querystring: LoginQuery,
          response: { ...redirect('On to the issuer’s authorization endpoint.'), ...refusals },
        }),
      },
      async (request, reply) => {
        const login = configured();
        const { provider } = request.query;
        if (provider !== undefined && !login.providers.includes(provider)) {
          const known = login.providers.length > 0 ? login.providers.join(', ') : 'none is configured';
          return invalid(
            reply,
            ['query', 'provider'],
            `Input should be one of the identity providers (${known})`,
            'enum',
          );
        }
        const { location, cookies } = await login.begin(
          {
            ...(provider ? { provider } : {}),
            ...(request.query.return_to ? { returnTo: request.query.return_to } : {}),
          },
          request.headers.cookie,
        );
        return noStore(reply).header('Set-Cookie', cookies).redirect(location, 302);
      },
    );

    app.get<{ Querystring: Record<string, string> }>(
      '/auth/callback',
      {
        config: { public: true },
        ...route('Where the issuer sends the browser back: sets the session cookie and redirects to return_to', {
          security: [],
          querystring: CallbackQuery,
          response: { ...redirect('Signed in: on to return_to.'), ...refusals },
        }),
        preHandler: signInRateLimited(deps.rateLimiter, deps.rateLimits),
      },
      async (request, reply) => {
        const login = configured();
        // The pending login of this state ends here whatever happens: a failed one cannot be tried again with the
        // same cookie. The browser's other logins under way (other tabs) are left to finish.
        const { state } = request.query;
        noStore(reply);
        if (state) reply.header('Set-Cookie', clearedPendingLoginCookie(pendingLoginCookieName(state), secureCookies));
        const { user, returnTo, idToken } = await login
          .finish(request.query, request.headers.cookie, request.log)
          .catch((error: unknown) => {
            if (error instanceof HttpError)
              request.log.warn({ status: error.statusCode }, `OIDC sign-in refused: ${error.message}`);
            throw error;
          });
        const { token } = await deps.sessions.createSession(user.id, SESSION_TTL_MS);
        const maxAgeSeconds = SESSION_TTL_MS / 1000;
        const kept = idToken ? login.keepIdToken(idToken, token, maxAgeSeconds) : undefined;
        const session = sessionCookie(token, { maxAgeSeconds, secure: secureCookies });
        // A sign-in whose ID token is not kept forgets an older one: no hint of another sign-in is ever sent.
        reply.header('Set-Cookie', [session, kept ?? clearedIdTokenCookie(secureCookies)]);
        return reply.redirect(returnTo, 302);
      },
    );

    app.get<{ Querystring: { return_to?: string } }>(
      '/auth/logout',
      {
        config: { public: true },
        ...route('Sign out of this server and of the issuer: ends the session, redirects to the issuer’s end-session', {
          security: [],
          querystring: LogoutQuery,
          response: redirect('On to the issuer’s end_session_endpoint, or to return_to when it has none.'),
        }),
      },
      async (request, reply) => {
        const sessionToken = await endSession(request, deps);
        const returnTo = sameOriginPath(request.query.return_to);
        const from = { cookieHeader: request.headers.cookie, sessionToken };
        const location = (await oidc?.endSessionUrl(returnTo, from)) ?? returnTo;
        const ended = sessionCookie('', { maxAgeSeconds: 0, secure: secureCookies });
        reply.header('Set-Cookie', [ended, clearedIdTokenCookie(secureCookies)]);
        return noStore(reply).redirect(location, 302);
      },
    );
  };
}

/**
 * Revokes the session of the request's cookie, if it has a live one (a public route: no principal is set); answers
 * that cookie's token (live or not), which the ID token kept for the logout is bound to.
 */
async function endSession(request: FastifyRequest, deps: IdentityRouteDeps): Promise<string | undefined> {
  const credential = credentialOf({ cookie: request.headers.cookie });
  if (credential?.kind !== 'session') return undefined;
  const session = await deps.sessions.sessionUser(credential.secret);
  if (session) await deps.sessions.revoke(session.userId, session.sessionId);
  return credential.secret;
}

function noStore(reply: FastifyReply): FastifyReply {
  return reply.header('Cache-Control', 'no-store');
}
