import type { LLMConfig } from '@bosun/protocol';
import {
  LLMBadResponseError,
  type LLMError,
  LLMRateLimitError,
  LLMRequestError,
  LLMServiceUnavailableError,
  LLMTimeoutError,
} from './errors.ts';

export interface JsonExchange {
  body: unknown;
  latencyMs: number;
}

/**
 * POSTs JSON and returns the parsed answer, retrying retryable failures with exponential backoff:
 * wait = min(retry_max_wait, retry_min_wait * retry_multiplier^(attempt-1)) seconds, `num_retries` times.
 * `signal` cancels everything at once (the attempt in flight too) and rejects with its reason. `retries` only
 * ends the retrying (a pause): the attempt in flight may still answer, but a failed attempt is final and a
 * backoff wait ends at once, rejecting with the last failure.
 */
export async function postJsonWithRetries(
  url: string,
  headers: Record<string, string>,
  body: unknown,
  config: LLMConfig,
  signal?: AbortSignal,
  retries?: AbortSignal,
): Promise<JsonExchange> {
  let attempt = 0;
  for (;;) {
    try {
      return await postJson(url, headers, body, (config.timeout ?? 300) * 1000, signal);
    } catch (error) {
      const llmError = error as LLMError;
      if (!llmError.retryable || attempt >= config.num_retries || signal?.aborted || retries?.aborted) throw error;
      attempt++;
      const waitSeconds = Math.min(
        config.retry_max_wait,
        config.retry_min_wait * config.retry_multiplier ** (attempt - 1),
      );
      await backoff(waitSeconds * 1000, [signal, retries]);
      signal?.throwIfAborted();
      if (retries?.aborted) throw error;
    }
  }
}

async function postJson(
  url: string,
  headers: Record<string, string>,
  body: unknown,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<JsonExchange> {
  const started = performance.now();
  const timeout = AbortSignal.timeout(timeoutMs);
  const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
  let response: Response;
  let text: string;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
      signal: combined,
    });
    text = await response.text();
  } catch (error) {
    if (timeout.aborted) throw new LLMTimeoutError(`The LLM did not answer within ${timeoutMs / 1000} s (${url})`);
    if (signal?.aborted) throw error;
    throw new LLMServiceUnavailableError(`Cannot reach the LLM at ${url}: ${(error as Error).message}`);
  }
  const latencyMs = performance.now() - started;
  if (!response.ok) {
    const detail = `${response.status} from ${url}: ${text.slice(0, 500)}`;
    if (response.status === 429) throw new LLMRateLimitError(`Rate limited: ${detail}`);
    if (response.status >= 500 || response.status === 408) {
      throw new LLMServiceUnavailableError(`LLM service error: ${detail}`, response.status);
    }
    throw new LLMRequestError(`LLM request rejected: ${detail}`, response.status);
  }
  try {
    return { body: JSON.parse(text), latencyMs };
  } catch {
    throw new LLMBadResponseError(`The LLM answered with invalid JSON: ${text.slice(0, 200)}`);
  }
}

/** Waits `ms`, or less if one of `signals` is aborted (never rejects). */
function backoff(ms: number, signals: (AbortSignal | undefined)[]): Promise<void> {
  const given = signals.filter((signal): signal is AbortSignal => signal !== undefined);
  if (given.some((signal) => signal.aborted)) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      for (const signal of given) signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    for (const signal of given) signal.addEventListener('abort', done, { once: true });
  });
}
