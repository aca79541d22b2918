import { randomUUID } from 'node:crypto';
import { type ValidationError, toValidationErrors } from '@bosun/protocol';
import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import { type AllowedMethods, notFoundOrNotAllowed } from './allowed-methods.ts';

/** Where a validation error is, as clients of the OpenHands agent server know it. */
const PARTS: Record<string, string> = { body: 'body', querystring: 'query', params: 'path', headers: 'header' };

/** A client error answered as `{"detail": message}` with its status (and headers, e.g. `Retry-After`). */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
  }
}

export class NotFoundError extends HttpError {
  constructor(message = 'Not Found') {
    super(404, message);
  }
}

export class ConflictError extends HttpError {
  constructor(message: string) {
    super(409, message);
  }
}

/** A 422 for input that passed the schema but is still wrong (for example an unknown cursor). */
export class InputError extends Error {
  readonly statusCode = 422;
  constructor(readonly detail: ValidationError[]) {
    super(detail.map((d) => d.msg).join('; '));
  }
}

export function sendValidationError(reply: FastifyReply, detail: ValidationError[]): FastifyReply {
  return reply.code(422).send({ detail: detail.map(bounded) });
}

/** The longest `msg` (and `loc` name) a 422 carries. */
const MAX_TEXT = 300;

/**
 * An error item cut to size: a message that quotes an invalid value (an unknown tool name, a cursor) must not
 * echo megabytes of it. The middle is dropped, so both what was wrong and what was expected stay readable.
 */
function bounded(item: ValidationError): ValidationError {
  const cut = (text: string) =>
    text.length <= MAX_TEXT ? text : `${text.slice(0, MAX_TEXT / 2 - 2)} ... ${text.slice(-(MAX_TEXT / 2 - 3))}`;
  return { ...item, loc: item.loc.map((part) => (typeof part === 'string' ? cut(part) : part)), msg: cut(item.msg) };
}

/**
 * Errors become `{"detail": ...}` bodies: 422 with `{loc, msg, type}` items for bad input of any kind, 404 and
 * 409 with a message, an `HttpError`'s status with its message (a 503 when a service is out of reach), and 500
 * with an error id that is also in the log. Bad input never yields a 500. A path no route has is a 404; one that
 * other methods have (known from `allowed`) a 405 with `Allow`.
 */
export function installErrorHandlers(app: FastifyInstance, allowed?: AllowedMethods): void {
  app.setErrorHandler((error: FastifyError & { validation?: unknown; validationContext?: string }, request, reply) => {
    if (error.validation) {
      const part = PARTS[error.validationContext ?? 'body'] ?? 'body';
      return sendValidationError(reply, toValidationErrors(error.validation as never, [part]));
    }
    if (error instanceof InputError) return sendValidationError(reply, error.detail);
    if (error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error instanceof SyntaxError) {
      return sendValidationError(reply, [
        { loc: ['body'], msg: `JSON decode error: ${error.message}`, type: 'json_invalid' },
      ]);
    }
    if (error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY') {
      return sendValidationError(reply, [{ loc: ['body'], msg: 'Field required', type: 'missing' }]);
    }
    const status = error.statusCode ?? 500;
    if (error instanceof HttpError) {
      // A 5xx said on purpose (a service the server needs is out of reach): why, not an error id.
      if (status >= 500) request.log.warn({ status, detail: error.message }, 'answered with a server error');
      return reply.code(status).headers(error.headers).send({ detail: error.message });
    }
    if (status < 500) return reply.code(status).send({ detail: error.message });
    const errorId = randomUUID();
    request.log.error({ err: error, error_id: errorId }, 'unexpected error');
    return reply.code(500).send({ detail: 'Internal Server Error', error_id: errorId });
  });
  app.setNotFoundHandler(
    allowed ? notFoundOrNotAllowed(allowed) : (_request, reply) => reply.code(404).send({ detail: 'Not Found' }),
  );
}
