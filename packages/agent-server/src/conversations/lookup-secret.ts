import type { LookupSecretSource } from '@bosun/protocol';

/** How long one lookup may take: a tool waits on it. */
export const LOOKUP_TIMEOUT_MS = 10_000;
/** A longer answer is no secret value (and is not read whole). */
const MAX_VALUE_BYTES = 64 * 1024;

/** A secret that could not be looked up: its message names the secret and why, never its URL's secrets or headers. */
export class SecretLookupError extends Error {
  constructor(name: string, why: string) {
    super(`The secret ${name} could not be looked up: ${why}`);
    this.name = 'SecretLookupError';
  }
}

/**
 * The value `source` answers now: GET its URL with its headers, the body as text (as OpenHands' LookupSecret).
 * A redirect is refused rather than followed (the headers would go along to wherever it points).
 */
export async function lookUpSecret(name: string, source: LookupSecretSource, signal?: AbortSignal): Promise<string> {
  const timeout = AbortSignal.timeout(LOOKUP_TIMEOUT_MS);
  let response: Response;
  try {
    response = await fetch(source.url, {
      headers: { accept: 'text/plain', ...source.headers },
      redirect: 'manual',
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    });
  } catch (error) {
    const why = timeout.aborted ? `no answer within ${LOOKUP_TIMEOUT_MS / 1000} s` : causeOf(error);
    throw new SecretLookupError(name, why);
  }
  if (response.status !== 200) {
    await response.body?.cancel();
    throw new SecretLookupError(name, `the lookup answered HTTP ${response.status}`);
  }
  const length = Number(response.headers.get('content-length') ?? 0);
  if (length > MAX_VALUE_BYTES) {
    await response.body?.cancel();
    throw new SecretLookupError(name, `the value is longer than ${MAX_VALUE_BYTES} bytes`);
  }
  try {
    const value = await response.text();
    if (Buffer.byteLength(value) > MAX_VALUE_BYTES) {
      throw new SecretLookupError(name, `the value is longer than ${MAX_VALUE_BYTES} bytes`);
    }
    return value;
  } catch (error) {
    if (error instanceof SecretLookupError) throw error;
    throw new SecretLookupError(name, timeout.aborted ? 'the answer did not end in time' : causeOf(error));
  }
}

/** What went wrong with a fetch, without its URL (`fetch failed` says little; its cause says what). */
function causeOf(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error as Error).message;
}
