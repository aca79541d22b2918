import {
  LLMBadResponseError,
  LLMError,
  LLMServiceUnavailableError,
  LLMTimeoutError,
  httpError,
  parseJsonAnswer,
} from '../errors.ts';
import type { LLMCallObserver, LLMDelta } from '../types.ts';
import { type SseMessage, SseParser } from './sse.ts';

/** Makes one streamed answer whole again, event by event. */
export interface StreamAssembler {
  /** Takes one event, telling `emit` what it adds to the answer; throws an LLMError for an error it reports. */
  push(message: SseMessage, emit: (delta: LLMDelta) => void): void;
  /** The answer as the API gives it unstreamed; throws when the stream ended before the answer was complete. */
  answer(): unknown;
}

/**
 * POSTs a request for a streamed answer and assembles it. `timeoutMs` bounds the wait for each piece (the first
 * byte, then every next one), not the whole answer, which may take long while it keeps coming. A server that
 * answers with plain JSON (it does not stream) is taken as it is.
 */
export async function postStream(
  url: string,
  headers: Record<string, string>,
  body: unknown,
  timeoutMs: number,
  assembler: StreamAssembler,
  observer: LLMCallObserver | undefined,
  signal?: AbortSignal,
): Promise<{ body: unknown; latencyMs: number }> {
  const started = performance.now();
  const idle = new AbortController();
  let timer = setTimeout(() => idle.abort(), timeoutMs);
  const rearm = () => {
    clearTimeout(timer);
    timer = setTimeout(() => idle.abort(), timeoutMs);
  };
  const failure = (error: unknown, what: string): unknown => {
    if (error instanceof LLMError) return error;
    if (signal?.aborted) return signal.reason ?? error;
    if (idle.signal.aborted) return new LLMTimeoutError(`The LLM sent nothing for ${timeoutMs / 1000} s (${url})`);
    // fetch's own message is often only "fetch failed": its cause says what happened (e.g. "other side closed").
    const cause = (error as { cause?: unknown }).cause;
    const why = cause instanceof Error ? `${(error as Error).message}: ${cause.message}` : (error as Error).message;
    return new LLMServiceUnavailableError(`${what} (${url}): ${why}`);
  };
  const emit = (delta: LLMDelta) => observer?.delta?.(delta);
  let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  try {
    let response: Response;
    try {
      response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...headers },
        body: JSON.stringify({ ...(body as Record<string, unknown>) }),
        signal: signal ? AbortSignal.any([signal, idle.signal]) : idle.signal,
      });
    } catch (error) {
      throw failure(error, 'Cannot reach the LLM');
    }
    const streamed = response.headers.get('content-type')?.includes('text/event-stream') ?? false;
    if (!response.ok || !streamed) {
      let text: string;
      try {
        text = await response.text();
      } catch (error) {
        throw failure(error, 'The LLM answer broke off');
      }
      if (!response.ok) throw httpError(response.status, text, url);
      return { body: parseJsonAnswer(text), latencyMs: performance.now() - started };
    }
    if (!response.body) throw new LLMBadResponseError(`The LLM stream has no body (${url})`);
    reader = response.body.getReader();
    const parser = new SseParser();
    const decoder = new TextDecoder();
    for (;;) {
      let chunk: Awaited<ReturnType<typeof reader.read>>;
      try {
        chunk = await reader.read();
      } catch (error) {
        throw failure(error, 'The LLM stream broke off');
      }
      if (chunk.done) break;
      rearm();
      for (const message of parser.push(decoder.decode(chunk.value, { stream: true }))) assembler.push(message, emit);
    }
    reader = undefined;
    for (const message of [...parser.push(decoder.decode()), ...parser.end()]) assembler.push(message, emit);
    return { body: assembler.answer(), latencyMs: performance.now() - started };
  } finally {
    clearTimeout(timer);
    reader?.cancel().catch(() => undefined);
  }
}

/** The JSON of an event's data, or an LLMBadResponseError naming it. */
export function eventJson(message: SseMessage): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(message.data);
    if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // Reported below.
  }
  throw new LLMBadResponseError(
    `The LLM stream sent an event that is not a JSON object: ${message.data.slice(0, 200)}`,
  );
}

/** The error a stream's error event stands for: the server's trouble, worth retrying. */
export function streamError(detail: unknown): LLMServiceUnavailableError {
  return new LLMServiceUnavailableError(`The LLM stream reported an error: ${JSON.stringify(detail).slice(0, 500)}`);
}

/** The error of a stream that ended before its answer was complete. */
export function brokenOff(what: string): LLMServiceUnavailableError {
  return new LLMServiceUnavailableError(`The LLM stream ended before the answer was complete (${what})`);
}
