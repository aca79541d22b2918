import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { HostAccount, HostAnswer } from './git-host.ts';

/**
 * The stand-in's OAuth token endpoints renewing user tokens with refresh tokens (RFC 6749 §6): GitHub's `POST
 * /login/oauth/access_token` (its errors a 200 with `error`, as GitHub answers), GitLab's `POST /oauth/token` and
 * Bitbucket Cloud's `POST /site/oauth2/access_token` (client as Basic credentials; errors 400/401). Each checks the
 * client, and the refresh token: one use only (the new pair replaces it and the old access token, as GitHub
 * documents), a used, revoked or unknown one refused.
 */
export interface OAuthStandIn {
  client: { id: string; secret: string };
  /** Refresh tokens that renew, with the access token each renews (the account it reaches). */
  live: Map<string, string>;
  /** Every grant answered with new tokens. */
  grants: number;
  /** When set, token requests wait for it before being answered. */
  hold?: Promise<void>;
  /** A new token of `account` (reaching it through `accounts`) and the refresh token that renews it. */
  issue(account: HostAccount): { accessToken: string; refreshToken: string };
}

export const OAUTH_PATHS: Record<string, 'github' | 'gitlab' | 'bitbucket'> = {
  '/login/oauth/access_token': 'github',
  '/oauth/token': 'gitlab',
  '/site/oauth2/access_token': 'bitbucket',
};

export function oauthStandIn(accounts: Map<string, HostAccount>): OAuthStandIn {
  return {
    client: { id: 'Iv1.stand-in-client', secret: 'stand-in-client-secret' },
    live: new Map(),
    grants: 0,
    issue(account) {
      const accessToken = `ghu_${randomBytes(9).toString('hex')}`;
      const refreshToken = `ghr_${randomBytes(9).toString('hex')}`;
      accounts.set(accessToken, account);
      this.live.set(refreshToken, accessToken);
      return { accessToken, refreshToken };
    },
  };
}

/** The answer of the token endpoint of `kind` to a refresh grant of `body` (form-encoded). */
export async function oauthAnswer(
  oauth: OAuthStandIn,
  accounts: Map<string, HostAccount>,
  kind: 'github' | 'gitlab' | 'bitbucket',
  request: IncomingMessage,
  body: string,
): Promise<HostAnswer> {
  await oauth.hold;
  const form = new URLSearchParams(body);
  const basic = /^Basic\s+(.+)$/i.exec(request.headers.authorization ?? '')?.[1];
  const [id, secret] = basic
    ? Buffer.from(basic, 'base64').toString('utf8').split(':')
    : [form.get('client_id'), form.get('client_secret')];
  const refuse = (status: number, error: string) => ({ status: kind === 'github' ? 200 : status, body: { error } });
  if (id !== oauth.client.id || secret !== oauth.client.secret) {
    return refuse(401, kind === 'github' ? 'incorrect_client_credentials' : 'invalid_client');
  }
  if (form.get('grant_type') !== 'refresh_token') return refuse(400, 'unsupported_grant_type');
  const refreshToken = form.get('refresh_token') ?? '';
  const renewed = oauth.live.get(refreshToken);
  const account = renewed === undefined ? undefined : accounts.get(renewed);
  if (renewed === undefined || !account) return refuse(400, kind === 'github' ? 'bad_refresh_token' : 'invalid_grant');
  oauth.live.delete(refreshToken);
  accounts.delete(renewed);
  oauth.grants += 1;
  const next = oauth.issue(account);
  const expiresIn = kind === 'github' ? 28_800 : 7_200;
  const lifetimes = kind === 'github' ? { refresh_token_expires_in: 15_811_200 } : {};
  const answer = { access_token: next.accessToken, refresh_token: next.refreshToken, expires_in: expiresIn };
  return { status: 200, body: { ...answer, ...lifetimes, token_type: 'bearer', scope: '' } };
}
