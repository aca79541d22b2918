import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
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
  const body = JSON.stringify({ detail });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nConnection: close\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}
