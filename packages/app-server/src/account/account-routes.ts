import { gitProviderRoutes } from '../git/routes/git-providers.ts';
import type { ApiRoutes } from '../http/api-routes.ts';
import { installAuthentication } from '../identity/authenticate.ts';
import { apiKeyRoutes } from '../identity/routes/api-keys.ts';
import { authRoutes } from '../identity/routes/auth.ts';
import { oidcRoutes } from '../identity/routes/oidc.ts';
import { userRoutes } from '../identity/routes/users.ts';
import { memberRoutes } from '../organizations/routes/members.ts';
import { organizationRoutes } from '../organizations/routes/organizations.ts';
import type { SettingsRouteDeps } from '../settings/routes/deps.ts';
import { llmCheckRoutes } from '../settings/routes/llm-check.ts';
import { secretRoutes } from '../settings/routes/secrets.ts';
import { settingsRoutes } from '../settings/routes/settings.ts';

/**
 * Authentication of every `/api/v1` route (those registered later too), and the routes of users, API keys,
 * sign-in (one-time URL, OpenID Connect), settings, secrets, Git provider tokens and organizations.
 */
export function accountRoutes(deps: SettingsRouteDeps): ApiRoutes {
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
