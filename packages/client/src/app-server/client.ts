import type { ServerStatus } from '../agent-server/types.ts';
import { type CallOptions, HttpClient } from '../http.ts';
import type { Transport } from '../transport.ts';
import { APP_SERVER_OPERATIONS, type AppServerOperationName } from './operations.ts';
import { AppServerSandboxes } from './sandboxes.ts';

export interface AppServerClientOptions {
  /** The app server's root, e.g. `http://127.0.0.1:3000`. */
  baseUrl: string;
  /** An API key (`sk-bosun-...`), sent as `Authorization: Bearer`. */
  apiKey?: string;
  /** The organization requests act in (`X-Org-Id`); none: the key's or the user's own. */
  orgId?: string;
  /** The fetch to use (default: `node:http` with keep-alive connections in Node, else the global fetch). */
  fetch?: Transport;
  /** Time limit of each request (default 60 s; 0: none). */
  timeoutMs?: number;
}

/** A typed client for Bosun's app server (`/api/v1`). */
export class AppServerClient extends AppServerSandboxes {
  readonly http: HttpClient;

  constructor(options: AppServerClientOptions) {
    super();
    const headers: Record<string, string> = {};
    if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`;
    if (options.orgId) headers['X-Org-Id'] = options.orgId;
    this.http = new HttpClient({
      baseUrl: options.baseUrl,
      headers,
      ...(options.fetch ? { fetch: options.fetch } : {}),
      ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
    });
  }

  private call<T>(name: AppServerOperationName, options: CallOptions = {}): Promise<T> {
    const { method, path } = APP_SERVER_OPERATIONS[name];
    return this.http.json<T>({ ...options, method, path });
  }

  alive(options?: CallOptions): Promise<ServerStatus> {
    return this.call('alive', options);
  }
  health(options?: CallOptions): Promise<ServerStatus> {
    return this.call('health', options);
  }
  /** `{status: "ready"}`; a `BosunApiError` with status 503 while the server starts. */
  ready(options?: CallOptions): Promise<ServerStatus> {
    return this.call('ready', options);
  }
}
