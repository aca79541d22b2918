export { AppServerConfig, appServerConfig } from './config.ts';
export { appServerConfigProblems } from './start/config-problems.ts';
export type { AppContext, AppDependencies, ServerRoutes } from './context.ts';
export type { ApiRoutes, RouteContext } from './http/api-routes.ts';
export type { Dependency } from './http/health.ts';
export { API_PREFIX, type AppServer, type AppServerOptions, buildAppServer } from './server.ts';
export { API_ROUTES } from './server-routes.ts';
export {
  DatabaseOpenError,
  SchemaBehindError,
  type SchemaStepReport,
  migrateAppSchema,
  openDatabase,
  seedForBenchmark,
} from './data/index.ts';
export { type OwnerApiKeyOptions, createOwnerApiKey, createOwnerSignInUrl } from './start/owner-api-key.ts';
export {
  LICENSE_ISSUER,
  LicenseFormatError,
  LicensePayload,
  type LicenseState,
  type LicenseTrust,
  decodeLicense,
  licenseStateAt,
  verifyLicense,
} from './license/index.ts';
export { SERVER_TITLE, SERVER_VERSION } from './http/server-info.ts';
export { type RunningAppServer, type StartOptions, startAppServer } from './start/start.ts';
export { AppServerConfigError, ListenError, StartError } from './start/start-errors.ts';
