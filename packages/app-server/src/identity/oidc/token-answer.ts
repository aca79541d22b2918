import type { TokenLifetime } from '../../data/repositories/provider-tokens.ts';

// The token responses of OAuth 2.0 providers (RFC 6749 §5): JSON, or form-encoded as GitHub answers without
// `Accept: application/json` (and as Keycloak's broker endpoint passes GitHub's on).

/** The most of an answer read: a token response is a few kilobytes at most. */
const MAX_ANSWER_BYTES = 64 * 1024;
/** What may be stored and later sent as a Git credential: visible ASCII, bounded. */
const TOKEN_SHAPE = /^[\x21-\x7e]{1,4096}$/;

/** A token response's token, the token that renews it, and their lifetimes in seconds (absent: not said). */
export interface TokenAnswer {
  accessToken: string;
  refreshToken?: string;
  expiresIn?: number;
  refreshExpiresIn?: number;
}

/** The fields of a token response, JSON or form-encoded; undefined when it is neither. */
function fieldsOf(body: string | undefined): Record<string, unknown> | undefined {
  const text = body?.trim() ?? '';
  if (!text.startsWith('{')) return Object.fromEntries(new URLSearchParams(text));
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

const tokenIn = (value: unknown) => (typeof value === 'string' && TOKEN_SHAPE.test(value) ? value : undefined);

/** Seconds as a positive whole number (a JSON number, or digits in a form). */
function secondsIn(value: unknown): number | undefined {
  const seconds = typeof value === 'string' && /^\d{1,10}$/.test(value) ? Number(value) : value;
  return typeof seconds === 'number' && Number.isSafeInteger(seconds) && seconds > 0 ? seconds : undefined;
}

/** The token response in `body`; undefined when it has no `access_token` of the right shape. */
export function tokenAnswerOf(body: string | undefined): TokenAnswer | undefined {
  const fields = fieldsOf(body);
  const accessToken = tokenIn(fields?.access_token);
  if (!fields || !accessToken) return undefined;
  const answer: TokenAnswer = { accessToken };
  const refreshToken = tokenIn(fields.refresh_token);
  const expiresIn = secondsIn(fields.expires_in);
  const refreshExpiresIn = secondsIn(fields.refresh_token_expires_in);
  if (refreshToken) answer.refreshToken = refreshToken;
  if (expiresIn) answer.expiresIn = expiresIn;
  if (refreshExpiresIn) answer.refreshExpiresIn = refreshExpiresIn;
  return answer;
}

/** The `error` code of an OAuth error response (GitHub sends it with a 200), else undefined. */
export function tokenErrorOf(body: string | undefined): string | undefined {
  const error = fieldsOf(body)?.error;
  return typeof error === 'string' && error.length > 0 ? error.slice(0, 100) : undefined;
}

/** When the answer's tokens expire, as stored, counted from `now` (ms). */
export function lifetimeOf(answer: TokenAnswer, now = Date.now()): TokenLifetime {
  const at = (seconds: number | undefined) => (seconds ? new Date(now + seconds * 1000).toISOString() : null);
  return {
    expiresAt: at(answer.expiresIn),
    refreshToken: answer.refreshToken ?? null,
    refreshExpiresAt: at(answer.refreshExpiresIn),
  };
}

/** The body as text, undefined past MAX_ANSWER_BYTES (not read further). */
export async function boundedText(answer: Response): Promise<string | undefined> {
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
