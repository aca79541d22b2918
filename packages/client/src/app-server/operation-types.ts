import type { CallOptions, QueryValue } from '../http.ts';
import type { AppServerApi } from './app-server-api.ts';

/** The HTTP methods of the app server's operations. */
export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** The paths that have an operation for `M`. */
export type PathWith<M extends Method> = {
  [P in keyof AppServerApi]: M extends keyof AppServerApi[P] ? P : never;
}[keyof AppServerApi];

/** The operation at path `P` with method `M`, as `app-server-api.ts` types it. */
export type OperationAt<P, M extends Method> = P extends keyof AppServerApi
  ? M extends keyof AppServerApi[P]
    ? AppServerApi[P][M]
    : never
  : never;

/** What a call of an operation takes beside its path: its path parameters, query and body, and the call's options. */
export type RequestOf<O> = CallOptions & Pick<O, Extract<keyof O, 'params' | 'query' | 'body'>>;

/** The request argument: optional when the operation needs nothing. */
export type RequestArgs<O> = Record<string, never> extends RequestOf<O>
  ? [request?: RequestOf<O>]
  : [request: RequestOf<O>];

/** What an operation answers on success. */
export type AnswerOf<O> = O extends { answer: infer A } ? A : never;

/** The request as `callOperation` takes it (the query's fields are query values by construction). */
export function operationCall(request: object | undefined): {
  params?: Record<string, string>;
  query?: Record<string, QueryValue>;
  body?: unknown;
} & CallOptions {
  return (request ?? {}) as never;
}
