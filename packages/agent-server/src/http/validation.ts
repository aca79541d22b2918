import { newProtocolAjv, validatorFor } from '@bosun/protocol';
import type { TSchema } from '@sinclair/typebox';
import type { FastifySchemaCompiler } from 'fastify';

/**
 * Request validation with the protocol's validators: bodies strictly (unknown properties rejected, nothing
 * coerced, defaults filled in); path and query parameters with coercion, since they arrive as strings.
 */
export function validatorCompiler(): FastifySchemaCompiler<TSchema> {
  // Made on first use: most of the ajv's cost would otherwise be paid at start-up.
  let coercing: ReturnType<typeof newProtocolAjv> | undefined;
  const coercingAjv = () => {
    coercing ??= newProtocolAjv({ coerceTypes: true });
    return coercing;
  };
  return ({ schema, httpPart }) => {
    // Compiled on a route's first request, not when the server starts: start-up stays short, and a route
    // never called costs nothing.
    let validate: ReturnType<typeof validatorFor> | undefined;
    const arrays = httpPart === 'querystring' ? arrayParameters(schema) : [];
    return (data: unknown) => {
      validate ??= httpPart === 'body' ? validatorFor(schema) : validatorFor(schema, coercingAjv());
      // A repeated query parameter given once (`?ids=a`) arrives as a string: it is a list of one.
      if (arrays.length > 0 && data && typeof data === 'object') {
        const query = data as Record<string, unknown>;
        for (const name of arrays) if (typeof query[name] === 'string') query[name] = [query[name]];
      }
      return validate(data)
        ? { value: data }
        : { error: Object.assign(new Error('invalid'), { validation: validate.errors }) };
    };
  };
}

/** The names of the query parameters that are lists. */
function arrayParameters(schema: TSchema): string[] {
  const properties = (schema as { properties?: Record<string, { type?: unknown }> }).properties ?? {};
  return Object.entries(properties)
    .filter(([, property]) => property.type === 'array')
    .map(([name]) => name);
}
