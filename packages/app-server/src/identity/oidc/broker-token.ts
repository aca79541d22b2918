import * as client from 'openid-client';
import { reasonOf } from './issuer.ts';
import { type TokenAnswer, boundedText, tokenAnswerOf } from './token-answer.ts';

/** The issuer did not give the identity provider's token: why, for the operator (never the token). */
export class BrokerTokenError extends Error {
  override readonly name = 'BrokerTokenError';
}

/**
 * The token identity provider `alias` gave at the sign-in whose access token is `accessToken`, as Keycloak keeps it
 * when the provider has *Store tokens* on: `GET <issuer>/broker/<alias>/token` with that access token (which needs
 * the `broker` client's `read-token` role). The answer is the provider's own token response, JSON (OpenID Connect
 * providers, GitLab) or form-encoded (GitHub): its `access_token`, and the `refresh_token`, `expires_in` and
 * `refresh_token_expires_in` that renew it when the provider's tokens expire. A BrokerTokenError when there is none.
 */
export async function brokerToken(
  config: client.Configuration,
  accessToken: string,
  alias: string,
): Promise<TokenAnswer> {
  const issuer = config.serverMetadata().issuer.replace(/\/+$/, '');
  const url = new URL(`${issuer}/broker/${encodeURIComponent(alias)}/token`);
  let answer: Response;
  try {
    const headers = new Headers({ accept: 'application/json' });
    answer = await client.fetchProtectedResource(config, accessToken, url, 'GET', undefined, headers);
  } catch (error) {
    throw new BrokerTokenError(`the issuer was not asked or refused (${reasonOf(error)})`);
  }
  if (!answer.ok) {
    await answer.body?.cancel();
    throw new BrokerTokenError(`the issuer answered HTTP ${answer.status}`);
  }
  const token = tokenAnswerOf(await boundedText(answer));
  if (!token) throw new BrokerTokenError('the issuer answered no access_token');
  return token;
}

/** The `access_token` of a token response, JSON or form-encoded; undefined when it has none of the right shape. */
export function accessTokenIn(body: string | undefined): string | undefined {
  return tokenAnswerOf(body)?.accessToken;
}
