import { BosunApiError, BosunNetworkError, BosunTimeoutError, BosunTooLargeError } from './errors.ts';
import { AnswerTooLargeError, type Transport, type TransportResponse, defaultTransport } from './transport.ts';

/** A value of a query parameter; an array repeats the parameter (`ids=a&ids=b`); `undefined` leaves it out. */
export type QueryValue = string | number | boolean | readonly (string | number)[] | undefined | null;

export interface HttpClientOptions {
  /** The server's root, e.g. `http://127.0.0.1:8000` (a path prefix is kept). */
  baseUrl: string;
  /** Headers sent with every request (authentication). */
  headers?: Record<string, string>;
  /** The fetch to use (default: `node:http` with keep-alive connections in Node, else the global fetch). */
  fetch?: Transport;
  /** How long a request may take before it fails with a `BosunTimeoutError` (default 60 s; 0: no limit). */
  timeoutMs?: number;
}

/** Per call: a signal to cancel it, and a time limit other than the client's. */
export interface CallOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
}

export interface HttpRequest extends CallOptions {
  method: string;
  /** The path with its parameters filled in (each one URL-encoded by `pathOf`). */
  path: string;
  query?: Record<string, QueryValue>;
  /** Sent as JSON. */
  body?: unknown;
  /** Sent as it is, with its content type (instead of a JSON `body`). */
  content?: { type: string; text: string };
  /** The largest answer taken: a larger one is a `BosunTooLargeError` (`bytes` only). */
  maxBytes?: number;
}

export interface HttpResponse {
  status: number;
  headers: Headers;
  /** The body, parsed when it is JSON, else its text; `undefined` when empty. */
  body: unknown;
}

const DEFAULT_TIMEOUT_MS = 60_000;

/** A call of a named operation: its path's parameters, its query and body, and the call's options. */
export interface OperationCall extends CallOptions {
  params?: Record<string, string>;
  query?: Record<string, QueryValue>;
  body?: unknown;
}

/** Calls the operation at `path` (a template) with `method`, answering the JSON it answers. */
export function callOperation<T>(
  http: HttpClient,
  { method, path }: { method: string; path: string },
  { params, ...call }: OperationCall = {},
): Promise<T> {
  return http.json<T>({ ...call, method, path: pathOf(path, params) });
}

/** Fills `{name}` placeholders of a path template with URL-encoded values. */
export function pathOf(template: string, params: Record<string, string> = {}): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new TypeError(`missing path parameter ${name} of ${template}`);
    return encodeURIComponent(value);
  });
}

/** `?a=1&ids=x&ids=y`, or an empty string when nothing is set. */
export function queryString(query: Record<string, QueryValue> = {}): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    for (const item of Array.isArray(value) ? value : [value]) params.append(name, String(item));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** JSON over HTTP: one place for the base URL, authentication headers, time limits and errors. */
export class HttpClient {
  readonly baseUrl: string;
  private readonly headers: Record<string, string>;
  private readonly fetch: Transport;
  private readonly timeoutMs: number;

  constructor(options: HttpClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.headers = { accept: 'application/json', ...options.headers };
    this.fetch = options.fetch ?? defaultTransport();
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  }

  /** The authentication headers (for the WebSocket upgrade). */
  get authHeaders(): Record<string, string> {
    const { accept: _, ...rest } = this.headers;
    return rest;
  }

  /** The answer's body for a 2xx; a `BosunApiError` for any other status. */
  async json<T>(request: HttpRequest): Promise<T> {
    return (await this.send(request)).body as T;
  }

  /** Sends the request; throws `BosunApiError` (non-2xx), `BosunTimeoutError` or `BosunNetworkError`. */
  async send(request: HttpRequest): Promise<HttpResponse> {
    const response = await this.exchange(request, async (r) => ({
      status: r.status,
      headers: r.headers,
      body: parseBody(await r.text()),
    }));
    if (response.status < 200 || response.status > 299) throw apiError(response.status, response.body, request);
    return response;
  }

  /** The raw bytes of a 2xx answer (a file), with its content type. */
  async bytes(request: HttpRequest): Promise<{ contentType: string; bytes: Uint8Array }> {
    const answer = await this.exchange(request, async (r) => {
      if (!r.ok) return { ok: false as const, status: r.status, body: parseBody(await r.text()) };
      const bytes = new Uint8Array(await r.arrayBuffer());
      // A transport that does not honour `maxBytes` read it all: refused all the same.
      if (request.maxBytes !== undefined && bytes.byteLength > request.maxBytes) {
        throw new AnswerTooLargeError(request.maxBytes);
      }
      return { ok: true as const, contentType: r.headers.get('content-type') ?? '', bytes };
    });
    if (!answer.ok) throw apiError(answer.status, answer.body, request);
    return { contentType: answer.contentType, bytes: answer.bytes };
  }

  /** One request, read by `read` within the time limit; network failures and timeouts become client errors. */
  private async exchange<T>(request: HttpRequest, read: (response: TransportResponse) => Promise<T>): Promise<T> {
    const { method, path } = request;
    const timeoutMs = request.timeoutMs ?? this.timeoutMs;
    // One controller and timer per request: AbortSignal.any and AbortSignal.timeout cost milliseconds under load.
    const controller = new AbortController();
    let timedOut = false;
    const timer =
      timeoutMs > 0
        ? setTimeout(() => {
            timedOut = true;
            controller.abort();
          }, timeoutMs)
        : undefined;
    const cancel = () => controller.abort(request.signal?.reason);
    request.signal?.addEventListener('abort', cancel, { once: true });
    if (request.signal?.aborted) cancel();
    const headers: Record<string, string> = { ...this.headers };
    if (request.body !== undefined) headers['content-type'] = 'application/json';
    if (request.content !== undefined) headers['content-type'] = request.content.type;
    const body = request.content?.text ?? (request.body !== undefined ? JSON.stringify(request.body) : undefined);
    try {
      const response = await this.fetch(`${this.baseUrl}${path}${queryString(request.query)}`, {
        method,
        headers,
        ...(body !== undefined ? { body } : {}),
        ...(request.maxBytes !== undefined ? { maxBytes: request.maxBytes } : {}),
        signal: controller.signal,
      });
      return await read(response);
    } catch (error) {
      if (request.signal?.aborted) throw request.signal.reason;
      if (timedOut) throw new BosunTimeoutError(method, path, timeoutMs);
      if (error instanceof AnswerTooLargeError) throw new BosunTooLargeError(method, path, error.maxBytes);
      throw new BosunNetworkError(method, path, error);
    } finally {
      clearTimeout(timer);
      request.signal?.removeEventListener('abort', cancel);
    }
  }
}

/** The error of a non-2xx answer: its `detail` when the body has one (every Bosun error does), else the body. */
function apiError(status: number, body: unknown, request: HttpRequest): BosunApiError {
  const detail = body && typeof body === 'object' && 'detail' in body ? body.detail : body;
  return new BosunApiError(status, detail, request.method, request.path, body);
}

function parseBody(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
