import type { ApiRoutes } from '../../http/api-routes.ts';
import { legacyConversationRoutes } from './conversations.ts';
import { callV1, relay, succeeded } from './forward.ts';
import { legacyOptionRoutes } from './options.ts';
import { legacySecretRoutes } from './secrets.ts';
import { legacySettingsRoutes } from './settings.ts';

/**
 * The routes outside `/api/v1` that OpenHands' web client (0.62 to 1.5) still calls, at OpenHands' paths and in
 * its shapes, each an alias over the `/api/v1` route that does the work (called in process as the caller: the
 * same authentication, ownership and validation). Registered on the server itself, not under `/api/v1`; each
 * request is first authenticated by the V1 route `/users/me`, so that a request without valid credentials is a
 * 401 before its input is read, as on the V1 routes.
 */
export const legacyApi: ApiRoutes = async (app, context) => {
  await app.register(async (legacy) => {
    // Before the input is read, as for the V1 routes: without valid credentials, a 401 whatever the request holds.
    legacy.addHook('onRequest', async (request, reply) => {
      if (request.routeOptions.config.public) return;
      const me = await callV1(app, request, { url: '/api/v1/users/me' });
      if (!succeeded(me)) return relay(reply, me);
    });
    legacySettingsRoutes(app)(legacy, context);
    legacyOptionRoutes(app)(legacy, context);
    legacySecretRoutes(app)(legacy, context);
    legacyConversationRoutes(app)(legacy, context);
  });
};
