import { createHash } from 'node:crypto';
import type * as client from 'openid-client';
import type { SignInGitProvider } from '../../config/sign-in-git-providers.ts';
import type { Repositories } from '../../data/index.ts';
import { BrokerTokenError, brokerToken } from './broker-token.ts';
import { reasonOf } from './issuer.ts';
import { type TokenAnswer, lifetimeOf } from './token-answer.ts';

export type SignInTokenStore = Pick<Repositories['providerTokens'], 'setFromSignIn'>;

/** How a sign-in tells the operator about the Git token it brought (never the token). */
export interface SignInLog {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
}

export interface SignInGitToken {
  config: client.Configuration;
  /** The sign-in's access token at the issuer (the broker endpoint reads the token for its holder). */
  accessToken: string;
  /** The identity provider the login was sent to (`kc_idp_hint`) and the Git provider its token is for. */
  alias: string;
  git: SignInGitProvider;
  userId: string;
  /** The login identity: the issuer and the account's subject. */
  issuer: string;
  subject: string;
}

/**
 * Asks the issuer for the Git token identity provider `alias` gave at this sign-in and stores it as the user's
 * token for its provider (sealed; with its refresh token and expiry when it expires), unless the user keeps one
 * another source stored (by hand: never replaced). A failure is logged and ends here: the sign-in goes on, and the person can still store a token by hand.
 */
export async function keepSignInGitToken(store: SignInTokenStore, sign: SignInGitToken, log?: SignInLog) {
  const { alias, git } = sign;
  const about = { identity_provider: alias, provider: git.provider };
  let answer: TokenAnswer;
  try {
    answer = await brokerToken(sign.config, sign.accessToken, alias);
  } catch (error) {
    // Whatever went wrong (an answer cut off midway included), the sign-in goes on.
    const reason = error instanceof BrokerTokenError ? error.message : reasonOf(error);
    log?.warn({ ...about, reason }, 'The Git token of the sign-in was not read: none stored');
    return;
  }
  try {
    const source = signInTokenSource(sign.issuer, sign.subject, alias);
    // Kept with what renews it when the provider's tokens expire (a GitHub App's after 8 h): see git/token-renewal.
    const token = { token: answer.accessToken, host: git.host, source, ...lifetimeOf(answer) };
    const stored = await store.setFromSignIn(sign.userId, git.provider, token);
    if (!stored) log?.info(about, 'The Git token of the sign-in was not stored: the user keeps the one they stored');
  } catch (error) {
    log?.warn({ ...about, reason: (error as Error).message }, 'The Git token of the sign-in was not stored');
  }
}

/** The source a sign-in's tokens are stored with: a digest of its login identity and identity provider. */
export function signInTokenSource(issuer: string, subject: string, alias: string): string {
  return `sign-in:${createHash('sha256').update(`${issuer}\u0000${subject}\u0000${alias}`).digest('base64url')}`;
}
