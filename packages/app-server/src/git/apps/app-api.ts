import { requestRaw } from '../providers/request.ts';

/** What the app's REST API answered that the server cannot use (the message never holds a token). */
export class GitHubAppError extends Error {
  override name = 'GitHubAppError';
}

/** An installation access token as GitHub mints it. */
export interface MintedToken {
  token: string;
  /** When it expires (epoch milliseconds). */
  expiresAt: number;
}

export interface AppApiOptions {
  /** The REST API's root, without a trailing slash (`https://api.github.com`, `<ghe>/api/v3`). */
  base: string;
  /** A fresh app JWT for each request. */
  jwt: () => string;
  timeoutMs: number;
}

const HEADERS = { accept: 'application/vnd.github+json', 'x-github-api-version': '2022-11-28', 'user-agent': 'Bosun' };

/** The GitHub App's own REST routes, asked with its JWT: which installation owns a repository, and its tokens. */
export class AppApi {
  constructor(private readonly options: AppApiOptions) {}

  /** The id of the app's installation that can read `owner/repo`; null when the app is not installed there. */
  async installationOf(owner: string, repo: string): Promise<string | null> {
    const path = `/repos/${encodeURIComponent(owner)}/${encodeURIComponent(repo)}/installation`;
    const answer = await this.ask(path);
    if (answer.status === 404) return null;
    const { id } = this.accepted(answer, 'its installation was not read');
    if (typeof id !== 'number' && typeof id !== 'string') throw new GitHubAppError('GitHub named no installation');
    return String(id);
  }

  /**
   * A token of installation `id` that reads the contents of `repositories` (names in the installation's account)
   * and nothing else: `POST /app/installations/{id}/access_tokens`.
   */
  async mint(id: string, repositories: readonly string[]): Promise<MintedToken> {
    const body = JSON.stringify({ repositories, permissions: { contents: 'read' } });
    const answer = await this.ask(`/app/installations/${encodeURIComponent(id)}/access_tokens`, body);
    const minted = this.accepted(answer, 'no installation token was minted');
    const expiresAt = typeof minted.expires_at === 'string' ? Date.parse(minted.expires_at) : Number.NaN;
    if (typeof minted.token !== 'string' || minted.token === '' || !Number.isFinite(expiresAt)) {
      throw new GitHubAppError('GitHub answered an installation token without its token or its expiry');
    }
    return { token: minted.token, expiresAt };
  }

  /**
   * What `login` may do in `owner/repo` (`admin`, `maintain`, `write`, `triage`, `read`, `none`), asked with a token
   * of the installation that owns it (`GET /repos/{owner}/{repo}/collaborators/{login}/permission`).
   */
  async permissionOf(token: string, owner: string, repo: string, login: string): Promise<string> {
    const path = `/repos/${[owner, repo, 'collaborators', login].map(encodeURIComponent).join('/')}/permission`;
    const answer = await this.ask(path, undefined, token);
    if (answer.status === 404) return 'none';
    const { permission } = this.accepted(answer, `the permission of ${login} was not read`);
    return typeof permission === 'string' ? permission : 'none';
  }

  /** Asks `path` as the app (its JWT), or with an installation's `token`. */
  private async ask(path: string, body?: string, token?: string): Promise<{ status: number; text: string }> {
    const { base, jwt, timeoutMs } = this.options;
    try {
      const headers = { ...HEADERS, authorization: `Bearer ${token ?? jwt()}` };
      return await requestRaw(new URL(`${base}${path}`), { headers, timeoutMs }, body);
    } catch (error) {
      const timedOut = error instanceof Error && error.name === 'TimeoutError';
      throw new GitHubAppError(
        `GitHub ${timedOut ? `did not answer within ${timeoutMs / 1000} s` : 'could not be reached'} (${base})`,
      );
    }
  }

  private accepted(answer: { status: number; text: string }, what: string): Record<string, unknown> {
    if (answer.status === 401 || answer.status === 403) {
      throw new GitHubAppError(`GitHub refused the app (${answer.status}): ${what} (check its ID and private key)`);
    }
    if (answer.status < 200 || answer.status >= 300)
      throw new GitHubAppError(`GitHub answered ${answer.status}: ${what}`);
    let body: unknown;
    try {
      body = JSON.parse(answer.text);
    } catch {}
    if (!body || typeof body !== 'object') throw new GitHubAppError(`GitHub answered no JSON object: ${what}`);
    return body as Record<string, unknown>;
  }
}
