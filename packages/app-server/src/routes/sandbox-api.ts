import { createRepositories } from '../data/index.ts';
import { DEFAULT_RATE_LIMITS, rateLimited } from '../identity/rate-limits.ts';
import { RateLimiter } from '../rate-limit/index.ts';
import { LocalSandboxes, SANDBOX_SPECS } from '../sandboxes/index.ts';
import type { ApiRoutes, AppContext } from '../server.ts';
import { sandboxSpecRoutes } from './sandbox-specs.ts';
import { type SandboxRouteDeps, sandboxRoutes } from './sandboxes.ts';

/** The `/api/v1` routes of sandboxes and sandbox specs over `deps`; the sandboxes stop when the server closes. */
export function sandboxApi(deps: SandboxRouteDeps): ApiRoutes {
  return (api) => {
    sandboxRoutes(api, deps);
    sandboxSpecRoutes(api, deps.specs);
    api.addHook('onClose', () => deps.sandboxes.close());
  };
}

/** The same over the server's database, its sandboxes local processes in its data directory. */
export const sandboxApiOfServer: ApiRoutes = async (api, context: AppContext) => {
  const { database, cache } = context.dependencies;
  // As the identity routes, which authenticate these: no database, no routes.
  if (!database || !cache || !context.keyRing) return;
  const { config } = context;
  const sandboxes = await LocalSandboxes.open({
    repository: createRepositories(database, context.keyRing).sandboxes,
    dataDir: config.data_dir,
    specs: SANDBOX_SPECS,
    ...(config.sandbox_command ? { command: config.sandbox_command } : {}),
    maxRunningPerUser: config.max_running_sandboxes,
    startTimeoutMs: config.sandbox_start_timeout * 1000,
    stopGraceMs: STOP_GRACE_MS,
  });
  const startLimit = rateLimited(new RateLimiter(cache), DEFAULT_RATE_LIMITS, 'sandbox_start');
  await sandboxApi({ sandboxes, specs: SANDBOX_SPECS, startLimit })(api, context);
};

/** The agent server's own stop deadline is 10 s; SIGKILL comes after that. */
const STOP_GRACE_MS = 12_000;
