import * as client from 'openid-client';
import { reasonOf } from './issuer.ts';

/** The most of an answer read: a token response is a few kilobytes at most. */
const MAX_ANSWER_BYTES = 64 * 1024;
/** What may be stored and later sent as a Git credential: visible ASCII, bounded. */
const TOKEN_SHAPE = /^[\x21-\x7e]{1,4096}$/;

/** The issuer did not give the identity provider's token: why, for the operator (never the token). */
export class BrokerTokenError extends Error {
  override readonly name = 'BrokerTokenError';
}

/**
 * The token identity provider `alias` gave at the sign-in whose access token is `accessToken`, as Keycloak keeps it
 * when the provider has *Store tokens* on: `GET <issuer>/broker/<alias>/token` with that access token (which needs
 * the `broker` client's `read-token` role). The answer is the provider's own token response, JSON (OpenID Connect
 * providers, GitLab) or form-encoded (GitHub): its `access_token`. A BrokerTokenError when there is none.
 */
export async function brokerToken(config: client.Configuration, accessToken: string, alias: string): Promise<string> {
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
  const token = accessTokenIn(await boundedText(answer));
  if (!token) throw new BrokerTokenError('the issuer answered no access_token');
  return token;
}

/** The `access_token` of a token response, JSON or form-encoded; undefined when it has none of the right shape. */
export function accessTokenIn(body: string | undefined): string | undefined {
  const text = body?.trim() ?? '';
  let token: unknown;
  if (text.startsWith('{')) {
    try {
      token = JSON.parse(text).access_token;
    } catch {
      return undefined;
    }
  } else {
    token = new URLSearchParams(text).get('access_token');
  }
  return typeof token === 'string' && TOKEN_SHAPE.test(token) ? token : undefined;
}

/** The body as text, undefined past MAX_ANSWER_BYTES (not read further). */
async function boundedText(answer: Response): Promise<string | undefined> {
  const reader = answer.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_ANSWER_BYTES) {
      await reader.cancel();
      return undefined;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}
