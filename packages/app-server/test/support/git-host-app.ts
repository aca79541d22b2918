import { type KeyObject, generateKeyPairSync, randomBytes, verify } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** One installation of the app: the account it is installed on and the repositories (`owner/name`) it may read. */
export interface StandInInstallation {
  id: number;
  account: string;
  repositories: string[];
}

/** A token the stand-in minted: of which installation, for which repositories (`owner/name`). */
export interface MintedToken {
  token: string;
  installationId: number;
  repositories: string[];
}

/**
 * A stand-in for a GitHub App's REST routes (GitHub's `/api/v3` as GitHub Enterprise serves it), beside the Git host
 * of skill-host.ts: `GET /repos/{owner}/{repo}/installation` and `POST /app/installations/{id}/access_tokens`, each
 * only with a JWT of the app (RS256, checked with the app's public key: issuer, dates, signature), and the
 * installation tokens it mints, each reading only the repositories it was minted for within its installation
 * (and asking `GET /repos/{owner}/{repo}/collaborators/{login}/permission` of those).
 */
export interface AppStandIn {
  appId: string;
  /** The app's private key, PEM (as `git_github_app_private_key` takes it). */
  privateKeyPem: string;
  installations: StandInInstallation[];
  /** What each login may do in each repository (`owner/name`: login: `read`...), as the installations tell it. */
  permissions: Record<string, Record<string, string>>;
  /** Every token minted, in order. */
  minted: MintedToken[];
  /** How long the tokens minted from now on last (GitHub's: an hour). */
  lifetimeMs: number;
  /** Refuses every token minted so far, as a host refuses a revoked or expired one. */
  revokeAll(): void;
  /** Whether `token` is a live installation token that may read `repository` (`owner/name`). */
  reads(token: string | undefined, repository: string): boolean;
  /** The installation `token` was minted by (undefined: not one of its tokens). */
  installationOf(token: string | undefined): number | undefined;
  /** The answer to a request of the app's routes; undefined when `path` is none of them. */
  answer(request: IncomingMessage, path: string, body: string): { status: number; body: unknown } | undefined;
}

function verifiedJwt(jwt: string, publicKey: KeyObject, appId: string): boolean {
  const [header, claims, signature] = jwt.split('.');
  if (!header || !claims || !signature) return false;
  const parse = (part: string) =>
    JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as Record<string, unknown>;
  try {
    if (parse(header).alg !== 'RS256') return false;
    if (!verify('sha256', Buffer.from(`${header}.${claims}`), publicKey, Buffer.from(signature, 'base64url'))) {
      return false;
    }
    const { iss, iat, exp } = parse(claims);
    const now = Date.now() / 1000;
    // GitHub's rules: issued by the app, not in the future (a minute of skew), expiring within ten minutes.
    return (
      String(iss) === appId &&
      typeof iat === 'number' &&
      typeof exp === 'number' &&
      iat <= now + 60 &&
      exp > now &&
      exp - iat <= 660
    );
  } catch {
    return false;
  }
}

export function appStandIn(appId: string, installations: StandInInstallation[]): AppStandIn {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const live = new Map<string, MintedToken & { expiresAt: number }>();
  const stand: AppStandIn = {
    appId,
    privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    installations,
    permissions: {},
    minted: [],
    lifetimeMs: 60 * 60_000,
    revokeAll: () => live.clear(),
    reads(token, repository) {
      const minted = token === undefined ? undefined : live.get(token);
      return !!minted && minted.expiresAt > Date.now() && minted.repositories.includes(repository);
    },
    installationOf: (token) => stand.minted.find((minted) => minted.token === token)?.installationId,
    answer(request, path, body) {
      const permission = /^\/api\/v3\/repos\/([^/]+\/[^/]+)\/collaborators\/([^/]+)\/permission$/.exec(path);
      if (permission) {
        // Asked with an installation token that reads the repository (GitHub's Metadata permission).
        const [, repository = '', login = ''] = permission.map(decodeURIComponent);
        const token = /^Bearer\s+(.+)$/i.exec(request.headers.authorization ?? '')?.[1];
        if (!stand.reads(token, repository)) return { status: 404, body: { message: 'Not Found' } };
        return { status: 200, body: { permission: stand.permissions[repository]?.[login] ?? 'none' } };
      }
      const lookup = /^\/api\/v3\/repos\/([^/]+)\/([^/]+)\/installation$/.exec(path);
      const mint = /^\/api\/v3\/app\/installations\/(\d+)\/access_tokens$/.exec(path);
      if (!lookup && !mint) return undefined;
      const jwt = /^Bearer\s+(.+)$/i.exec(request.headers.authorization ?? '')?.[1] ?? '';
      if (!verifiedJwt(jwt, publicKey, appId))
        return { status: 401, body: { message: 'A JSON web token could not be decoded' } };
      if (lookup && request.method === 'GET') {
        const repository = `${decodeURIComponent(lookup[1] as string)}/${decodeURIComponent(lookup[2] as string)}`;
        const found = installations.find((installation) => installation.repositories.includes(repository));
        return found
          ? { status: 200, body: { id: found.id, account: { login: found.account } } }
          : { status: 404, body: { message: 'Not Found' } };
      }
      const installation = installations.find(({ id }) => String(id) === mint?.[1]);
      if (!installation || request.method !== 'POST') return { status: 404, body: { message: 'Not Found' } };
      let asked: string[] | undefined;
      try {
        asked = (JSON.parse(body || '{}') as { repositories?: string[] }).repositories;
      } catch {
        return { status: 400, body: { message: 'Problems parsing JSON' } };
      }
      const repositories = (asked ?? installation.repositories.map((name) => name.split('/')[1] as string)).map(
        (name) => `${installation.account}/${name}`,
      );
      if (!repositories.every((repository) => installation.repositories.includes(repository))) {
        return { status: 422, body: { message: 'There is at least one repository that does not exist' } };
      }
      const token = `ghs_${randomBytes(12).toString('hex')}`;
      const expiresAt = Date.now() + stand.lifetimeMs;
      const minted = { token, installationId: installation.id, repositories };
      live.set(token, { ...minted, expiresAt });
      stand.minted.push(minted);
      return { status: 201, body: { token, expires_at: new Date(expiresAt).toISOString() } };
    },
  };
  return stand;
}
