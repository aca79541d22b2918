import type { FastifyInstance } from 'fastify';
import { installAuthentication } from '../identity/authenticate.ts';
import { apiKeyRoutes } from './api-keys.ts';
import { authRoutes } from './auth.ts';
import type { IdentityRouteDeps } from './deps.ts';
import { gitProviderRoutes } from './git-providers.ts';
import { llmCheckRoutes } from './llm-check.ts';
import { memberRoutes } from './members.ts';
import { oidcRoutes } from './oidc.ts';
import { organizationRoutes } from './organizations.ts';
import { secretRoutes } from './secrets.ts';
import { settingsRoutes } from './settings.ts';
import { userRoutes } from './users.ts';

/**
 * Authentication of every `/api/v1` route (those registered later too), and the routes of users, API keys,
 * sign-in (one-time URL, OpenID Connect), settings, secrets and organizations.
 */
export function identityRoutes(app: FastifyInstance, deps: IdentityRouteDeps): void {
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
    routes(app, deps);
  }
}
