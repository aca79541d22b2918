import { type OperationCall, callOperation } from '../http.ts';
import { ServerProbes } from '../server-probes.ts';
import { APP_SERVER_OPERATIONS, type AppServerOperationName } from './operations.ts';

/** The base of the app server client's parts: each calls the app server's operations by name. */
export abstract class AppServerCalls extends ServerProbes {
  protected call<T>(name: AppServerOperationName, call?: OperationCall): Promise<T> {
    return callOperation<T>(this.http, APP_SERVER_OPERATIONS[name], call);
  }
}
