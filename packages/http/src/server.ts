import Fastify, { type FastifyInstance } from 'fastify';
import { recordAllowedMethods } from './allowed-methods.ts';
import { installContentEncoding } from './content-encoding.ts';
import { installErrorHandlers } from './errors.ts';
import { edgeErrorOptions } from './framework-errors.ts';
import { installJsonBody } from './json-body.ts';
import { type LogFormatSetting, logStreamFor } from './log-format.ts';
import { loggerOptions } from './log-options.ts';
import { installSocketHeartbeat } from './socket-heartbeat.ts';
import { type ConnectionTimeouts, DEFAULT_TIMEOUTS, installBodyIdleTimeout, timeoutOptions } from './timeouts.ts';
import { refuseUpgradesOfPlainRoutes } from './upgrade-refusal.ts';
import { validatorCompiler } from './validation.ts';

export interface HttpServerOptions {
  /** Least severe level of the structured (pino) logs; none: no logs. */
  logLevel?: string | undefined;
  /** Where the logs go (default: standard output). */
  logStream?: { write(line: string): unknown } | undefined;
  /** How the logs are written (default `auto`: readable on a terminal, JSON elsewhere). */
  logFormat?: LogFormatSetting | undefined;
  /** The largest request body, in bytes. */
  bodyLimit?: number;
  /** How long a client may take to send a request (default: `DEFAULT_TIMEOUTS`). */
  timeouts?: Partial<ConnectionTimeouts> | undefined;
}

/**
 * A Fastify instance with what every Bosun HTTP service shares: the one error shape (`{"detail": ...}`, 422 with
 * `loc`/`msg`/`type` for any bad input), the protocol's validators, JSON bodies (depth-capped; no body means
 * none; gzip, deflate and br bodies decoded within the body limit), GET with a body, timeouts for clients that
 * never finish sending, 405 with `Allow` for a wrong method, upgrades refused on routes that are no WebSocket,
 * WebSockets pinged (clients that stop answering cut), and logs that never hold a credential. Routes, auth and
 * OpenAPI are the caller's.
 */
export function createHttpServer(options: HttpServerOptions = {}): FastifyInstance {
  const timeouts = { ...DEFAULT_TIMEOUTS, ...options.timeouts };
  const app = Fastify({
    logger: options.logLevel
      ? {
          ...loggerOptions(options.logLevel),
          stream: logStreamFor(options.logFormat, options.logStream ?? process.stdout),
        }
      : false,
    bodyLimit: options.bodyLimit ?? 32 * 1024 * 1024,
    exposeHeadRoutes: false,
    ajv: { customOptions: { strict: false } },
    ...edgeErrorOptions,
    ...timeoutOptions(timeouts),
  });
  app.addHttpMethod('GET', { hasBody: true, overrideExisting: true });
  app.setValidatorCompiler(validatorCompiler());
  // Handlers build their bodies exactly, so plain JSON.stringify serializes them; compiling a serializer per
  // route from large union schemas would cost start-up time.
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
  installErrorHandlers(app, recordAllowedMethods(app));
  refuseUpgradesOfPlainRoutes(app);
  installBodyIdleTimeout(app, timeouts.bodyIdleMs);
  installSocketHeartbeat(app, timeouts.socketPingMs);
  installContentEncoding(app);
  installJsonBody(app);
  return app as unknown as FastifyInstance;
}
