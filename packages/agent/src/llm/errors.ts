/** A failure talking to an LLM. `retryable` failures (429, 5xx, timeouts, dropped connections) are retried. */
export class LLMError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'LLMError';
  }
}

export class LLMRateLimitError extends LLMError {
  constructor(message: string) {
    super(message, true, 429);
    this.name = 'LLMRateLimitError';
  }
}

export class LLMServiceUnavailableError extends LLMError {
  constructor(message: string, status?: number) {
    super(message, true, status);
    this.name = 'LLMServiceUnavailableError';
  }
}

export class LLMTimeoutError extends LLMError {
  constructor(message: string) {
    super(message, true);
    this.name = 'LLMTimeoutError';
  }
}

/** The LLM answered, but not with something we can use (malformed JSON, unexpected shape). */
export class LLMBadResponseError extends LLMError {
  constructor(message: string) {
    super(message, true);
    this.name = 'LLMBadResponseError';
  }
}

/** 4xx other than 429: retrying will not help (bad key, bad request, context too long). */
export class LLMRequestError extends LLMError {
  constructor(message: string, status: number) {
    super(message, false, status);
    this.name = status === 401 || status === 403 ? 'LLMAuthenticationError' : 'LLMRequestError';
  }
}

/** Whether a request error says the prompt is longer than the model's context window. */
export function isContextWindowError(error: unknown): boolean {
  return (
    error instanceof LLMRequestError &&
    /context.{0,20}(length|window)|too many tokens|maximum context|prompt is too long/i.test(error.message)
  );
}

/** The error an LLM's HTTP error answer stands for: 429 and 5xx (and 408) are worth retrying. */
export function httpError(status: number, text: string, url: string): LLMError {
  const detail = `${status} from ${url}: ${text.slice(0, 500)}`;
  if (status === 429) return new LLMRateLimitError(`Rate limited: ${detail}`);
  if (status >= 500 || status === 408) return new LLMServiceUnavailableError(`LLM service error: ${detail}`, status);
  return new LLMRequestError(`LLM request rejected: ${detail}`, status);
}

export function parseJsonAnswer(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new LLMBadResponseError(`The LLM answered with invalid JSON: ${text.slice(0, 200)}`);
  }
}
