import type { ValidationError } from '@bosun/protocol';

/** What every error of the client is: catch this to handle them all. */
export class BosunClientError extends Error {
  /** The HTTP method and the path (without the query) of the request that failed. */
  readonly method: string;
  readonly path: string;

  constructor(message: string, method: string, path: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
    this.method = method;
    this.path = path;
  }
}

/** The server answered with a status other than 2xx; `detail` is its `detail` as it sent it. */
export class BosunApiError extends BosunClientError {
  readonly status: number;
  /** A string for most errors; a list of `{loc, msg, type}` for a 422; the whole body when it had no `detail`. */
  readonly detail: unknown;
  /** The whole answer, for errors that say more than `detail` (a 409 of a start names the plugin `sources`). */
  readonly body: unknown;

  constructor(status: number, detail: unknown, method: string, path: string, body: unknown = detail) {
    super(`${method} ${path}: ${status} ${describe(detail)}`, method, path);
    this.status = status;
    this.detail = detail;
    this.body = body;
  }

  /** The validation problems of a 422 (empty for any other error). */
  get validationErrors(): ValidationError[] {
    return Array.isArray(this.detail) ? (this.detail as ValidationError[]) : [];
  }
}

/** The server could not be reached, or the connection broke before an answer (no status). */
export class BosunNetworkError extends BosunClientError {
  constructor(method: string, path: string, cause: unknown) {
    super(`${method} ${path}: ${cause instanceof Error ? cause.message : String(cause)}`, method, path, { cause });
  }
}

/** The answer was larger than the request's `maxBytes`: the rest of it was not read (the connection is closed). */
export class BosunTooLargeError extends BosunClientError {
  readonly maxBytes: number;

  constructor(method: string, path: string, maxBytes: number) {
    super(`${method} ${path}: the answer is larger than ${maxBytes} bytes`, method, path);
    this.maxBytes = maxBytes;
  }
}

/** No answer within the client's `timeoutMs` (the request was cancelled). */
export class BosunTimeoutError extends BosunClientError {
  readonly timeoutMs: number;

  constructor(method: string, path: string, timeoutMs: number) {
    super(`${method} ${path}: no answer within ${timeoutMs} ms`, method, path);
    this.timeoutMs = timeoutMs;
  }
}

/** A live event stream the server closed for good (authentication failed, unknown conversation or event). */
export class BosunSocketError extends BosunClientError {
  /** The WebSocket close code (4001 auth failed, 4004 not found, 4022 invalid request) or none. */
  readonly code: number | undefined;

  constructor(path: string, message: string, code?: number, options?: { cause?: unknown }) {
    super(`WebSocket ${path}: ${message}`, 'GET', path, options);
    this.code = code;
  }
}

function describe(detail: unknown): string {
  if (typeof detail === 'string') return detail;
  if (Array.isArray(detail)) {
    return detail
      .map((e: Partial<ValidationError>) => `${(e.loc ?? []).join('.') || '(root)'}: ${e.msg ?? JSON.stringify(e)}`)
      .join('; ');
  }
  return JSON.stringify(detail) ?? '';
}
