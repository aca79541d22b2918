import type { LLMConfig } from '@bosun/protocol';
import { type LLMError, LLMServiceUnavailableError, LLMTimeoutError, httpError, parseJsonAnswer } from './errors.ts';
import { type StreamAssembler, postStream } from './stream/post-stream.ts';
import type { LLMCallObserver } from './types.ts';

export interface JsonExchange {
  body: unknown;
  latencyMs: number;
}

export interface CallOptions {
  /** Cancels everything at once (the attempt in flight too) and rejects with its reason. */
  signal?: AbortSignal | undefined;
  /** Ends the retrying (a pause): the attempt in flight may still answer, a failed one is final. */
  retries?: AbortSignal | undefined;
  observer?: LLMCallObserver | undefined;
  /** Given, each attempt asks for a streamed answer, which a new assembler of this makes whole again. */
  stream?: (() => StreamAssembler) | undefined;
}

/**
 * POSTs JSON and returns the answer (parsed, or assembled from its stream), retrying retryable failures with
 * exponential backoff: wait = min(retry_max_wait, retry_min_wait * retry_multiplier^(attempt-1)) seconds,
 * `num_retries` times. A stream that breaks off midway is a failed attempt like any other: the next attempt
 * starts over (the observer heard that the attempt failed, so what it streamed is void).
 */
export async function postWithRetries(
  url: string,
  headers: Record<string, string>,
  body: unknown,
  config: LLMConfig,
  options: CallOptions = {},
): Promise<JsonExchange> {
  const { signal, retries, observer, stream } = options;
  const timeoutMs = (config.timeout ?? 300) * 1000;
  for (let attempt = 1; ; attempt++) {
    observer?.attemptStarted?.(attempt);
    try {
      return stream
        ? await postStream(url, headers, body, timeoutMs, stream(), observer, signal)
        : await postJson(url, headers, body, timeoutMs, signal);
    } catch (error) {
      const retryable = (error as Partial<LLMError>).retryable === true;
      const final = !retryable || attempt > config.num_retries || signal?.aborted || retries?.aborted;
      const waitSeconds = final
        ? null
        : Math.min(config.retry_max_wait, config.retry_min_wait * config.retry_multiplier ** (attempt - 1));
      await observer?.attemptFailed?.({
        attempt,
        maxAttempts: config.num_retries + 1,
        error: error instanceof Error ? error : new Error(String(error)),
        retryInSeconds: waitSeconds,
      });
      if (waitSeconds === null) throw error;
      await backoff(waitSeconds * 1000, [signal, retries]);
      signal?.throwIfAborted();
      if (retries?.aborted) throw error;
    }
  }
}

/** `postWithRetries` of a whole (not streamed) answer. */
export function postJsonWithRetries(
  url: string,
  headers: Record<string, string>,
  body: unknown,
  config: LLMConfig,
  signal?: AbortSignal,
  retries?: AbortSignal,
): Promise<JsonExchange> {
  return postWithRetries(url, headers, body, config, { signal, retries });
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
  if (!response.ok) throw httpError(response.status, text, url);
  return { body: parseJsonAnswer(text), latencyMs };
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
