import { type OperationCall, callOperation } from '../http.ts';
import { TypedCalls } from '../typed-calls.ts';
import type { AppServerApi } from './app-server-api.ts';
import { APP_SERVER_OPERATIONS, type AppServerOperationName } from './operations/index.ts';

/**
 * The base of the app server client: `get`, `post`, `put`, `patch` and `delete` call any operation of the app
 * server by its path, typed by `app-server-api.ts` (made from the server's OpenAPI document), e.g.
 * `client.get('/api/v1/sandboxes/search', { query: { limit: 10 } })`.
 */
export abstract class AppServerCalls extends TypedCalls<AppServerApi> {
  /** A route of the hand-written tables (being replaced by the typed methods above, resource by resource). */
  protected call<T>(name: AppServerOperationName, call?: OperationCall): Promise<T> {
    return callOperation<T>(this.http, APP_SERVER_OPERATIONS[name], call);
  }
}
