import { BosunApiError, BosunNetworkError, BosunSocketError, BosunTimeoutError } from '@bosun/client';

/** The first message of a 422's `detail` list, or the `detail` text of any other 4xx/5xx. */
function detailText(detail: unknown): string | undefined {
  if (typeof detail === 'string') return detail;
  if (Array.isArray(detail) && detail.length > 0) {
    const first = detail[0] as { loc?: unknown[]; msg?: string };
    const where = Array.isArray(first.loc) ? first.loc.filter((part) => part !== 'body').join('.') : '';
    return where ? `${where}: ${first.msg ?? 'invalid'}` : first.msg;
  }
  return undefined;
}

/** An error of the API (or the network) as a sentence a person can act on; never a stack. */
export function describeError(error: unknown): string {
  if (error instanceof BosunApiError) {
    const detail = detailText(error.detail);
    if (error.status === 401) return 'You are signed out. Sign in again to continue.';
    if (error.status === 403) return detail ?? 'You are not allowed to do this here.';
    if (error.status === 404) return detail ?? 'This no longer exists, or it is not yours.';
    if (error.status === 409) return detail ?? 'This changed meanwhile: reload and try again.';
    if (error.status === 429) return 'Too many requests: wait a moment and try again.';
    if (error.status >= 500) {
      return `The server failed (${error.status}${detail ? `: ${detail}` : ''}). Try again; if it persists, the server's log says why.`;
    }
    return detail ?? `The request was refused (${error.status}).`;
  }
  if (error instanceof BosunTimeoutError) return 'The server took too long to answer. Try again.';
  if (error instanceof BosunNetworkError)
    return 'The server cannot be reached. Check that Bosun is running and your connection.';
  if (error instanceof BosunSocketError) return `The live connection ended: ${error.message}`;
  if (error instanceof Error) return error.message;
  return String(error);
}

export const isSignedOut = (error: unknown): boolean => error instanceof BosunApiError && error.status === 401;
