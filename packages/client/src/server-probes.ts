import type { CallOptions, HttpClient, HttpClientOptions } from './http.ts';

/** `GET /alive`, `/health`, `/ready` (both servers). */
export interface ServerStatus {
  status: string;
  message?: string;
}

/** The probes both servers answer, as operations (each client's operation table holds them). */
export const PROBE_OPERATIONS = {
  alive: { method: 'GET', path: '/alive' },
  health: { method: 'GET', path: '/health' },
  ready: { method: 'GET', path: '/ready' },
} as const;

/** What a client's options say about how requests travel. */
export type TransportOptions = Pick<HttpClientOptions, 'fetch' | 'timeoutMs'>;

/** The HTTP client options for a server at `baseUrl` sending `headers`, with the caller's transport choices. */
export function httpOptions(
  baseUrl: string,
  headers: Record<string, string>,
  { fetch, timeoutMs }: TransportOptions,
): HttpClientOptions {
  return { baseUrl, headers, ...(fetch ? { fetch } : {}), ...(timeoutMs !== undefined ? { timeoutMs } : {}) };
}

/** A client of a server that answers the liveness, health and readiness probes. */
export abstract class ServerProbes {
  abstract readonly http: HttpClient;

  private probe(name: keyof typeof PROBE_OPERATIONS, options?: CallOptions): Promise<ServerStatus> {
    return this.http.json<ServerStatus>({ ...options, ...PROBE_OPERATIONS[name] });
  }

  alive(options?: CallOptions): Promise<ServerStatus> {
    return this.probe('alive', options);
  }
  health(options?: CallOptions): Promise<ServerStatus> {
    return this.probe('health', options);
  }
  /** `{status: "ready"}`; a `BosunApiError` with status 503 while the server starts. */
  ready(options?: CallOptions): Promise<ServerStatus> {
    return this.probe('ready', options);
  }
}
