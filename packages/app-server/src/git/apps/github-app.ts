import { type KeyObject, createPrivateKey } from 'node:crypto';
import { pemOf } from '../../config/github-app.ts';
import { gitUrlsOf } from '../provider-urls.ts';
import { apiBase } from '../providers/index.ts';
import { AppApi } from './app-api.ts';
import { appJwt } from './app-jwt.ts';
import { type InstallationToken, InstallationTokens } from './installation-tokens.ts';
import { InstallationLookup } from './installations.ts';

export type { InstallationToken } from './installation-tokens.ts';
export { GitHubAppError } from './app-api.ts';

export interface GitHubAppOptions {
  /** The JWTs' issuer: the app's ID (or its client ID). */
  issuer: string;
  privateKey: KeyObject;
  /** The REST API's root, without a trailing slash. */
  apiUrl: string;
  /** Its web root (`git_github_url`), where it is installed. */
  webUrl: string;
  slug?: string | undefined;
  timeoutMs?: number;
  now?: () => number;
}

/**
 * A GitHub App the server acts as: it finds the installation that owns a repository and mints that installation's
 * tokens, each reading that one repository only (cached until shortly before they expire).
 */
export class GitHubApp {
  private readonly api: AppApi;
  private readonly tokens: InstallationTokens;
  private readonly lookup: InstallationLookup;

  constructor(private readonly options: GitHubAppOptions) {
    const now = options.now ?? Date.now;
    const api = new AppApi({
      base: options.apiUrl.replace(/\/+$/, ''),
      jwt: () => appJwt(options.issuer, options.privateKey, now()),
      timeoutMs: options.timeoutMs ?? 10_000,
    });
    this.api = api;
    this.tokens = new InstallationTokens({ mint: (id, repositories) => api.mint(id, repositories), now });
    this.lookup = new InstallationLookup((owner, repo) => api.installationOf(owner, repo), now);
  }

  /** Where people install it (null without its slug). */
  get installUrl(): string | null {
    const { slug, webUrl } = this.options;
    return slug ? `${webUrl.replace(/\/+$/, '')}/apps/${slug}/installations/new` : null;
  }

  /**
   * A token that reads `owner/repo`, of the installation that owns it; null when the app is not installed on it.
   * Rejects with a `GitHubAppError` when GitHub refuses the app or cannot be reached.
   */
  async readToken(owner: string, repo: string): Promise<InstallationToken | null> {
    const installationId = await this.lookup.installationOf(owner, repo);
    return installationId === null ? null : this.tokens.token(installationId, [repo]);
  }

  /** Whether `login` may read `owner/repo`, as the installation whose `token` reads it says. */
  async mayRead(token: InstallationToken, owner: string, repo: string, login: string): Promise<boolean> {
    const permission = await this.api.permissionOf(token.token, owner, repo, login);
    return ['read', 'triage', 'write', 'maintain', 'admin'].includes(permission);
  }

  /** Another token in place of `refused` for `repo` (a host refused it): minted once. */
  renewed(refused: InstallationToken, repo: string): Promise<InstallationToken> {
    return this.tokens.renewed(refused, [repo]);
  }

  /** Forgets an installation's tokens and repositories (its webhook said it changed). */
  forget(installationId: string): void {
    this.tokens.forget(installationId);
    this.lookup.forget(installationId);
  }
}

export interface GitHubAppConfig {
  git_github_url?: string | undefined;
  git_github_app_id?: string | undefined;
  git_github_app_client_id?: string | undefined;
  git_github_app_slug?: string | undefined;
  git_github_app_private_key?: string | undefined;
  git_github_app_api_url?: string | undefined;
}

/** The GitHub App the configuration names (its private key, and its ID or client ID); undefined without one. */
export function gitHubAppOf(config: GitHubAppConfig): GitHubApp | undefined {
  const issuer = config.git_github_app_id ?? config.git_github_app_client_id;
  if (!config.git_github_app_private_key || !issuer) return undefined;
  const urls = gitUrlsOf(config);
  return new GitHubApp({
    issuer,
    privateKey: createPrivateKey(pemOf(config.git_github_app_private_key)),
    apiUrl: config.git_github_app_api_url ?? apiBase('github', null, urls),
    webUrl: urls.github,
    slug: config.git_github_app_slug,
  });
}
