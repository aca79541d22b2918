/** What became of one webhook post. */
export type PostOutcome =
  | { kind: 'delivered' }
  /** Worth trying again (network error, timeout, 5xx, 429); `afterMs` when the receiver said when (Retry-After). */
  | { kind: 'retry'; why: string; afterMs?: number }
  /** Refused for good (a 4xx other than 429): trying again would be refused again. */
  | { kind: 'refused'; status: number };

export interface PostTarget {
  url: string;
  headers: Record<string, string>;
  timeoutMs: number;
  /** Aborts the post (the server is closing). */
  signal: AbortSignal;
}

/** Posts `body` (JSON text) and says what became of it; never throws. */
export async function postJson(target: PostTarget, body: string): Promise<PostOutcome> {
  let response: Response;
  try {
    response = await fetch(target.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...target.headers },
      body,
      signal: AbortSignal.any([target.signal, AbortSignal.timeout(target.timeoutMs)]),
    });
    // Read to the end so the connection goes back to the pool (answers to webhooks are small).
    await response.arrayBuffer();
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code;
    return { kind: 'retry', why: cause ?? (error as Error).name ?? 'network error' };
  }
  if (response.ok) return { kind: 'delivered' };
  if (response.status === 429 || response.status >= 500) {
    const afterMs = retryAfterMs(response.headers.get('retry-after'));
    return { kind: 'retry', why: `HTTP ${response.status}`, ...(afterMs !== undefined ? { afterMs } : {}) };
  }
  return { kind: 'refused', status: response.status };
}

/** A Retry-After header (seconds or an HTTP date) in milliseconds from now. */
function retryAfterMs(header: string | null): number | undefined {
  if (!header) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

export interface Backoff {
  /** The wait before the first retry. */
  firstMs: number;
  /** The longest wait between two tries. */
  maxMs: number;
}

/**
 * The wait before try number `attempt + 1`: doubling from `firstMs` up to `maxMs`, the upper half jittered so
 * that sandboxes cut off together do not come back together. A receiver's Retry-After is honoured up to `maxMs`.
 */
export function retryDelay(backoff: Backoff, attempt: number, askedMs?: number): number {
  const exponential = Math.min(backoff.maxMs, backoff.firstMs * 2 ** Math.min(attempt - 1, 30));
  const jittered = exponential / 2 + (Math.random() * exponential) / 2;
  return askedMs === undefined ? jittered : Math.min(backoff.maxMs, Math.max(jittered, askedMs));
}
