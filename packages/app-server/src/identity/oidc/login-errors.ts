import { HttpError } from '@bosun/http';
import * as client from 'openid-client';
import { IssuerUnreachableError, reasonOf } from './issuer.ts';

/** Answers of the issuer's token endpoint that say the issuer failed, not the login. */
const ISSUER_FAULTS = new Set(['OAUTH_RESPONSE_IS_NOT_CONFORM', 'OAUTH_RESPONSE_IS_NOT_JSON', 'OAUTH_PARSE_ERROR']);

/**
 * What a failed login answers, as an HttpError: the issuer's or the person's refusal (403 for `access_denied`, else
 * 400), a code the issuer does not take (replayed, expired: 400), an answer that does not validate (wrong nonce,
 * issuer, audience or signature: 400), an issuer that cannot be reached (503) or that failed (502). Anything else
 * is a fault of this server and stays what it is.
 */
export function loginError(error: unknown): unknown {
  if (error instanceof HttpError) return error;
  if (error instanceof IssuerUnreachableError) return new HttpError(503, error.message);
  if (error instanceof client.AuthorizationResponseError) {
    const status = error.error === 'access_denied' ? 403 : 400;
    return new HttpError(status, `The issuer refused the sign-in: ${said(error.error, error.error_description)}`);
  }
  if (error instanceof client.ResponseBodyError) {
    if (error.status >= 500) return new HttpError(502, `The sign-in issuer failed (${said(error.error)})`);
    const why = said(error.error, error.error_description);
    return new HttpError(400, `The issuer did not take the sign-in's code (${why}): expired or used: sign in again`);
  }
  if (error instanceof client.ClientError) {
    if (ISSUER_FAULTS.has(error.code ?? '')) {
      return new HttpError(502, `The sign-in issuer answered wrongly (${error.message})`);
    }
    return new HttpError(400, `The issuer's answer did not validate (${error.message}): sign in again`);
  }
  if ((error instanceof TypeError && error.message === 'fetch failed') || (error as Error)?.name === 'TimeoutError') {
    return new HttpError(503, `The sign-in issuer cannot be reached (${reasonOf(error)}): try again later`);
  }
  return error;
}

/** An OAuth error code and its description, bounded (both come from outside). */
function said(code: string, description?: string): string {
  const text = description ? `${code}: ${description}` : code;
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}
