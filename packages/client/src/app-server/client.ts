import { HttpClient, callOperation } from '../http.ts';
import { ServerProbes, type TransportOptions, httpOptions } from '../server-probes.ts';
import {
  type AnswerOf,
  type Method,
  type OperationAt,
  type PathWith,
  type RequestArgs,
  operationCall,
} from './operation-types.ts';

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
 * server by its path, typed by `app-server-api.ts` (made from the server's OpenAPI document), e.g.
 * `client.get('/api/v1/sandboxes/search', { query: { limit: 10 } })`.
 */
export class AppServerClient extends ServerProbes {
  readonly http: HttpClient;

  constructor(options: AppServerClientOptions) {
    super();
    const headers: Record<string, string> = {};
    if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`;
    if (options.orgId) headers['X-Org-Id'] = options.orgId;
    this.http = new HttpClient(httpOptions(options.baseUrl, headers, options));
  }

  get<P extends PathWith<'get'>>(path: P, ...[request]: RequestArgs<OperationAt<P, 'get'>>) {
    return this.request<AnswerOf<OperationAt<P, 'get'>>>('get', path, request);
  }
  post<P extends PathWith<'post'>>(path: P, ...[request]: RequestArgs<OperationAt<P, 'post'>>) {
    return this.request<AnswerOf<OperationAt<P, 'post'>>>('post', path, request);
  }
  put<P extends PathWith<'put'>>(path: P, ...[request]: RequestArgs<OperationAt<P, 'put'>>) {
    return this.request<AnswerOf<OperationAt<P, 'put'>>>('put', path, request);
  }
  patch<P extends PathWith<'patch'>>(path: P, ...[request]: RequestArgs<OperationAt<P, 'patch'>>) {
    return this.request<AnswerOf<OperationAt<P, 'patch'>>>('patch', path, request);
  }
  delete<P extends PathWith<'delete'>>(path: P, ...[request]: RequestArgs<OperationAt<P, 'delete'>>) {
    return this.request<AnswerOf<OperationAt<P, 'delete'>>>('delete', path, request);
  }

  private request<T>(method: Method, path: string, request: object | undefined): Promise<T> {
    return callOperation<T>(this.http, { method: method.toUpperCase(), path }, operationCall(request));
  }
}
