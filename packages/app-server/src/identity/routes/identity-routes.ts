import { gitProviderRoutes } from '../../git/routes/git-providers.ts';
import type { ApiRoutes } from '../../http/api-routes.ts';
import { memberRoutes } from '../../organizations/routes/members.ts';
import { organizationRoutes } from '../../organizations/routes/organizations.ts';
import { llmCheckRoutes } from '../../settings/routes/llm-check.ts';
import { secretRoutes } from '../../settings/routes/secrets.ts';
import { settingsRoutes } from '../../settings/routes/settings.ts';
import { installAuthentication } from '../authenticate.ts';
import { apiKeyRoutes } from './api-keys.ts';
import { authRoutes } from './auth.ts';
import type { IdentityRouteDeps } from './deps.ts';
import { oidcRoutes } from './oidc.ts';
import { userRoutes } from './users.ts';

/**
 * Authentication of every `/api/v1` route (those registered later too), and the routes of users, API keys,
 * sign-in (one-time URL, OpenID Connect), settings, secrets and organizations.
 */
export function identityRoutes(deps: IdentityRouteDeps): ApiRoutes {
  return (app, context) => {
    installAuthentication(app, deps);
    for (const routes of [
      authRoutes,
      oidcRoutes,
      userRoutes,
      apiKeyRoutes,
      settingsRoutes,
      llmCheckRoutes,
      secretRoutes,
      gitProviderRoutes,
      organizationRoutes,
      memberRoutes,
    ]) {
      routes(deps)(app, context);
    }
  };
}
