import type { ApiRoutes } from '../../http/api-routes.ts';
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
