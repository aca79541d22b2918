import { type OperationCall, callOperation } from '../http.ts';
import { ServerProbes } from '../server-probes.ts';
import {
  type AnswerOf,
  type Method,
  type OperationAt,
  type PathWith,
  type RequestArgs,
  operationCall,
} from './operation-types.ts';
import { APP_SERVER_OPERATIONS, type AppServerOperationName } from './operations/index.ts';

/**
 * The base of the app server client: `get`, `post`, `put`, `patch` and `delete` call any operation of the app
 * server by its path, typed by `app-server-api.ts` (made from the server's OpenAPI document), e.g.
 * `client.get('/api/v1/sandboxes/search', { query: { limit: 10 } })`.
 */
export abstract class AppServerCalls extends ServerProbes {
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

  /** A route of the hand-written tables (being replaced by the typed methods above, resource by resource). */
  protected call<T>(name: AppServerOperationName, call?: OperationCall): Promise<T> {
    return callOperation<T>(this.http, APP_SERVER_OPERATIONS[name], call);
  }
}
