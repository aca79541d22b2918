import { callOperation } from './http.ts';
import {
  type AnswerOf,
  type Method,
  type OperationAt,
  type PathWith,
  type RequestArgs,
  operationCall,
} from './operation-types.ts';
import { ServerProbes } from './server-probes.ts';

/**
 * A client whose `get`, `post`, `put`, `patch` and `delete` call any operation of `Api` (the interface made
 * from the server's OpenAPI document) by its path, typed by it: path parameters, query, body and answer.
 */
export abstract class TypedCalls<Api> extends ServerProbes {
  get<P extends PathWith<Api, 'get'>>(path: P, ...[request]: RequestArgs<OperationAt<Api, P, 'get'>>) {
    return this.request<AnswerOf<OperationAt<Api, P, 'get'>>>('get', path, request);
  }
  post<P extends PathWith<Api, 'post'>>(path: P, ...[request]: RequestArgs<OperationAt<Api, P, 'post'>>) {
    return this.request<AnswerOf<OperationAt<Api, P, 'post'>>>('post', path, request);
  }
  put<P extends PathWith<Api, 'put'>>(path: P, ...[request]: RequestArgs<OperationAt<Api, P, 'put'>>) {
    return this.request<AnswerOf<OperationAt<Api, P, 'put'>>>('put', path, request);
  }
  patch<P extends PathWith<Api, 'patch'>>(path: P, ...[request]: RequestArgs<OperationAt<Api, P, 'patch'>>) {
    return this.request<AnswerOf<OperationAt<Api, P, 'patch'>>>('patch', path, request);
  }
  delete<P extends PathWith<Api, 'delete'>>(path: P, ...[request]: RequestArgs<OperationAt<Api, P, 'delete'>>) {
    return this.request<AnswerOf<OperationAt<Api, P, 'delete'>>>('delete', path, request);
  }

  private request<T>(method: Method, path: PropertyKey, request: object | undefined): Promise<T> {
    return callOperation<T>(this.http, { method: method.toUpperCase(), path: String(path) }, operationCall(request));
  }
}
