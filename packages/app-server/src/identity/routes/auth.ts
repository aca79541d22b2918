import { Type } from '@sinclair/typebox';
import type { ApiRoutes } from '../../http/api-routes.ts';
import { routeOptions } from '../../http/route-options.ts';
import { principalOf } from '../authenticate.ts';
import { sessionCookie } from '../credentials.ts';
import { signInRateLimited } from '../rate-limits.ts';
import { SESSION_TTL_MS } from '../sign-in.ts';
import type { IdentityRouteDeps } from './deps.ts';

const route = routeOptions('Authentication');

const SignInQuery = Type.Object(
  { token: Type.String({ minLength: 1, maxLength: 256, description: 'The one-time token of the sign-in URL.' }) },
  { additionalProperties: false },
);

/**
 * The one-time sign-in URL (printed at first start) sets a session cookie and redirects to `/`; sign-out ends
 * the session. Sign-in is limited per client address.
 */
export function authRoutes(deps: IdentityRouteDeps): ApiRoutes {
  return (app) => {
    const { users, sessions } = deps;

    app.get<{ Querystring: { token: string } }>(
      '/auth/sign-in',
      {
        config: { public: true },
        ...route('Sign in with a one-time token: sets the session cookie and redirects to /', {
          security: [],
          querystring: SignInQuery,
          response: {
            303: Type.Null({
              description:
                'Signed in: on to `/` (a browser with a link that does not sign in: `/sign-in?link=invalid`; over the ' +
                'limit: `/sign-in?sign_in=limited&retry_after=<s>`).',
            }),
          },
        }),
        preHandler: signInRateLimited(deps.rateLimiter, deps.rateLimits),
      },
      async (request, reply) => {
        const userId = await sessions.redeem(request.query.token);
        if (!userId || !(await users.get(userId))) {
          // A person who opened the link in a browser gets the sign-in page saying why, not a JSON answer.
          if ((request.headers.accept ?? '').includes('text/html')) {
            return reply.header('Cache-Control', 'no-store').redirect('/sign-in?link=invalid', 303);
          }
          return reply.code(401).send({ detail: 'This sign-in link is unknown, already used or expired' });
        }
        const { token } = await sessions.createSession(userId, SESSION_TTL_MS);
        const cookie = sessionCookie(token, { maxAgeSeconds: SESSION_TTL_MS / 1000, secure: deps.secureCookies });
        return reply.code(303).header('Set-Cookie', cookie).header('Cache-Control', 'no-store').redirect('/', 303);
      },
    );

    app.post(
      '/auth/sign-out',
      route('End the browser session', { response: { 200: 'EditResponse' } }),
      async (request, reply) => {
        const { userId, sessionId } = principalOf(request);
        if (sessionId) await sessions.revoke(userId, sessionId);
        reply.header('Set-Cookie', sessionCookie('', { maxAgeSeconds: 0, secure: deps.secureCookies }));
        return { message: 'Signed out' };
      },
    );
  };
}
