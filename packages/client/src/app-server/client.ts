import { HttpClient } from '../http.ts';
import { type TransportOptions, httpOptions } from '../server-probes.ts';
import { TypedCalls } from '../typed-calls.ts';
import type { AppServerApi } from './app-server-api.ts';

export interface AppServerClientOptions extends TransportOptions {
  /** The app server's root, e.g. `http://127.0.0.1:3000`. */
  baseUrl: string;
  /** An API key (`sk-bosun-...`), sent as `Authorization: Bearer`. */
  apiKey?: string;
  /** The organization requests act in (`X-Org-Id`); none: the key's or the user's own. */
  orgId?: string;
}

/**
 * A typed client for Bosun's app server: `get`, `post`, `put`, `patch` and `delete` call any operation of the app
 * server by its path, typed by `app-server-api.ts` (made from the server's OpenAPI document; a request body may leave
 * out what the server defaults), e.g. `client.get('/api/v1/sandboxes/search', { query: { limit: 10 } })`.
 */
export class AppServerClient extends TypedCalls<AppServerApi> {
  readonly http: HttpClient;

  constructor(options: AppServerClientOptions) {
    super();
    const headers: Record<string, string> = {};
    if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`;
    if (options.orgId) headers['X-Org-Id'] = options.orgId;
    this.http = new HttpClient(httpOptions(options.baseUrl, headers, options));
  }
}
