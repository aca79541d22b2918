import { ConflictError } from '@bosun/http';
import { Type } from '@sinclair/typebox';
import type { FastifyReply } from 'fastify';

/** A reference to a protocol shape, as Fastify resolves it. */
export const shape = (id: string) => Type.Unsafe({ $ref: `${id}#` });

export const errorResponses = {
  401: shape('HTTPError'),
  404: shape('HTTPError'),
  422: shape('HTTPValidationError'),
};

export function notFound(reply: FastifyReply, what: string) {
  return reply.code(404).send({ detail: `${what} not found` });
}

export function forbidden(reply: FastifyReply, detail: string) {
  return reply.code(403).send({ detail });
}

export function invalid(reply: FastifyReply, loc: (string | number)[], msg: string, type = 'value_error') {
  return reply.code(422).send({ detail: [{ loc, msg, type }] });
}

/** Runs `change`; a conflict with stored state (a taken name, the last owner) becomes a 409. */
export async function conflictsAs409<T>(change: () => Promise<T>): Promise<T> {
  try {
    return await change();
  } catch (error) {
    if (error instanceof Error && isConflict(error)) throw new ConflictError(error.message);
    throw error;
  }
}

/** Conflicts are recognised by name: the data layer's `DataConflictError` and its subclasses. */
function isConflict(error: Error): boolean {
  for (let proto = Object.getPrototypeOf(error); proto; proto = Object.getPrototypeOf(proto)) {
    if (proto.constructor?.name === 'DataConflictError') return true;
  }
  return false;
}
