import { newProtocolAjv, validatorFor } from '@bosun/protocol';
import type { TSchema } from '@sinclair/typebox';
import type { FastifySchemaCompiler } from 'fastify';

/**
 * Request validation with the protocol's validators: bodies strictly (unknown properties rejected, nothing
 * coerced, defaults filled in); path and query parameters with coercion, since they arrive as strings.
 */
export function validatorCompiler(): FastifySchemaCompiler<TSchema> {
  const coercing = newProtocolAjv({ coerceTypes: true });
  return ({ schema, httpPart }) => {
    const validate = httpPart === 'body' ? validatorFor(schema) : validatorFor(schema, coercing);
    return (data: unknown) =>
      validate(data)
        ? { value: data }
        : { error: Object.assign(new Error('invalid'), { validation: validate.errors }) };
  };
}
