export { type GitAuth, gitAuthFromSecrets } from './auth.ts';
export { GitCache, type GitCacheOptions, type GitCheckout } from './cache.ts';
export { PathEscapeError, pathInside } from './paths.ts';
export { redactCredentials } from './redact.ts';
export { GitError } from './run.ts';
export { DEFAULT_PROVIDERS, type GitProviders, GitSourceError, repositoryUrl } from './source.ts';
