import type { AppContext, ServerRoutes } from '../../context.ts';
import type { ApiRoutes } from '../../http/api-routes.ts';
import { DEFAULT_RATE_LIMITS, rateLimited } from '../../identity/rate-limits.ts';
import { sandboxSpecRoutes } from './sandbox-specs.ts';
import { type SandboxRouteDeps, sandboxRoutes } from './sandboxes.ts';

/** The `/api/v1` routes of sandboxes and sandbox specs over `deps`; the sandboxes stop when the server closes. */
export function sandboxApi(deps: SandboxRouteDeps): ApiRoutes {
  return (api, context) => {
    sandboxRoutes(deps)(api, context);
    sandboxSpecRoutes(deps.specs)(api, context);
    api.addHook('onClose', () => deps.sandboxes.close());
  };
}

/** The same over the server's services (its sandboxes local processes in its data directory). */
export const sandboxApiOfServer: ServerRoutes = async (api, context: AppContext) => {
  const { services } = context;
  // As the identity routes, which authenticate these: no database, no routes.
  if (!services) return;
  const { sandboxes, specs, rateLimiter } = services;
  const startLimit = rateLimited(rateLimiter, DEFAULT_RATE_LIMITS, 'sandbox_start');
  sandboxRoutes({ sandboxes, specs, startLimit })(api, context);
  sandboxSpecRoutes(specs)(api, context);
};
