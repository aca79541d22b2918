import { Type } from '@sinclair/typebox';
import type { ConnectionTimeouts } from './timeouts.ts';

/**
 * The settings every Bosun HTTP service starts with, for its configuration schema: the address and port it
 * listens on and its data directory (each service its own default port, and its own word on what it keeps).
 */
export function serviceSettings(defaultPort: number, dataDirDescription: string) {
  return {
    host: Type.String({ minLength: 1, default: '127.0.0.1', description: 'Address to listen on.' }),
    port: Type.Integer({
      minimum: 0,
      maximum: 65535,
      default: defaultPort,
      description: 'Port to listen on (0: any free port).',
    }),
    data_dir: Type.String({ minLength: 1, default: '.bosun', description: dataDirDescription }),
  };
}

/** The `log_level` setting of a Bosun HTTP service. */
export function logLevelSetting() {
  return Type.Union(
    ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((level) => Type.Literal(level)),
    { default: 'info', description: 'Least severe level of the structured (JSON) logs on standard output.' },
  );
}

/**
 * How long a client may take to send a request, in seconds (0: no limit): for a server that faces the internet,
 * where a client that never finishes would otherwise hold its connection forever. Answers past them are 408.
 */
export function timeoutSettings() {
  const seconds = (fallback: number, description: string) =>
    Type.Number({ minimum: 0, default: fallback, description });
  return {
    headers_timeout: seconds(30, 'Seconds the request line and headers may take to arrive (0: no limit).'),
    request_timeout: seconds(
      3600,
      'Seconds a whole request, body included, may take to arrive (0: no limit); generous, for large uploads. ' +
        'Answers and WebSockets are never cut by it.',
    ),
    body_idle_timeout: seconds(60, 'Seconds a request body may stop coming before it is refused (0: no limit).'),
    keep_alive_timeout: Type.Number({
      exclusiveMinimum: 0,
      default: 72,
      description: 'Seconds an idle connection is kept open for a next request (above a load balancer’s 60).',
    }),
    socket_ping_interval: seconds(
      30,
      'Seconds between pings on a WebSocket, so a proxy never closes a quiet one (under its idle timeout); a ' +
        'client that has not answered the previous ping is disconnected (0: no pings).',
    ),
  };
}

/** The timeouts those settings say, as `createHttpServer` takes them. */
export function timeoutsOf(config: {
  headers_timeout: number;
  request_timeout: number;
  body_idle_timeout: number;
  keep_alive_timeout: number;
  socket_ping_interval: number;
}): ConnectionTimeouts {
  return {
    headersMs: config.headers_timeout * 1000,
    requestMs: config.request_timeout * 1000,
    bodyIdleMs: config.body_idle_timeout * 1000,
    keepAliveMs: config.keep_alive_timeout * 1000,
    socketPingMs: config.socket_ping_interval * 1000,
  };
}
