import type { EventEmitter } from 'node:events';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/**
 * The errors Fastify and Node answer before any route or error handler runs, in the server's one error shape
 * (`{"detail": ...}`) instead of theirs. Both are Fastify constructor options.
 */
export const edgeErrorOptions = { frameworkErrors, clientErrorHandler };

/** A URL the router cannot decode (a malformed percent-encoding) or whose path parameter is too long. */
function frameworkErrors(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  if (error.code === 'FST_ERR_BAD_URL') {
    reply.code(422).send({
      detail: [{ loc: ['path'], msg: 'The path is not valid percent-encoded UTF-8', type: 'value_error' }],
    });
  } else if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    reply.code(414).send({ detail: 'A path parameter is longer than 100 characters' });
  } else {
    reply.code(error.statusCode ?? 500).send({ detail: STATUS_CODES[error.statusCode ?? 500] });
  }
}

/**
 * A request Node's HTTP parser refuses (headers too large, a NUL byte or another invalid character in a header,
 * an unknown method, a malformed request line) or that timed out. Only the parser's code is logged: the raw
 * packet would hold the request's headers, session key included.
 */
function clientErrorHandler(
  this: FastifyInstance,
  error: Error & { code?: string; reason?: string },
  socket: Socket,
): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, detail] =
    error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? [408, 'Request Timeout']
      : error.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'Request header fields too large']
        : [400, `Malformed HTTP request${error.reason ? `: ${error.reason}` : ''}`];
  this.log.debug({ code: error.code, reason: error.reason }, 'client error');
  writeError(socket, status, detail);
}

/**
 * Refusals from below Fastify's routing: a CONNECT (Node closes the connection unanswered unless someone
 * listens), and a WebSocket handshake the WebSocket library refuses (it answers in HTML unless someone listens).
 * Call once the WebSocket plugin is registered, if the server has one.
 */
export function installEdgeErrors(app: FastifyInstance): void {
  app.server.on('connect', (_request, socket: Duplex) => writeError(socket, 405, 'CONNECT is not supported'));
  (app as { websocketServer?: EventEmitter }).websocketServer?.on('wsClientError', (error: Error, socket: Duplex) =>
    writeError(
      socket,
      error.message === 'Invalid HTTP method' ? 405 : 400,
      `WebSocket handshake refused: ${error.message}`,
    ),
  );
}

/** Answers `{"detail": ...}` on a raw connection and closes it once the answer is written. */
export function writeError(socket: Duplex, status: number, detail: string): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const body = JSON.stringify({ detail });
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nConnection: close\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    () => socket.destroy(),
  );
}
