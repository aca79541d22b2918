/** One route a hand-written operation table names: its method, path template, query parameters and body. */
export interface Operation {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** OpenAPI's template: `{name}` for each path parameter. */
  path: string;
  query?: readonly string[];
  /** Whether the request has a JSON body. */
  body?: true;
}
