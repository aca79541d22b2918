import type { CallOptions, QueryValue } from './http.ts';

/** The HTTP methods of a server's operations. */
export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** The paths of `Api` (an interface made from a server's OpenAPI document) that have an operation for `M`. */
export type PathWith<Api, M extends Method> = {
  [P in keyof Api]: M extends keyof Api[P] ? P : never;
}[keyof Api];

/** The operation of `Api` at path `P` with method `M`. */
export type OperationAt<Api, P, M extends Method> = P extends keyof Api
  ? M extends keyof Api[P]
    ? Api[P][M]
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
