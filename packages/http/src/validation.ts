import { lazyProtocolAjv, validatorFor } from '@bosun/protocol';
import type { TSchema } from '@sinclair/typebox';
import type { FastifySchemaCompiler } from 'fastify';
import { InputError } from './errors.ts';

type Properties = Record<string, { type?: unknown }>;

/**
 * Request validation with the protocol's validators: bodies strictly (unknown properties rejected, nothing
 * coerced, defaults filled in); path and query parameters with coercion, since they arrive as strings. Unknown
 * query parameters are dropped before validation, as FastAPI ignores them: clients send paging and sorting hints
 * a route may not know (`sort`, `page`), and refusing those would break them. Known ones are still checked.
 */
export function validatorCompiler(): FastifySchemaCompiler<TSchema> {
  // Made on first use, if ever (the build's validators need none): its cost would otherwise be paid at start-up.
  const coercing = lazyProtocolAjv({ coerceTypes: true });
  return ({ schema, httpPart }) => {
    // Compiled on a route's first request, not when the server starts: start-up stays short, and a route
    // never called costs nothing.
    let validate: ReturnType<typeof validatorFor> | undefined;
    const arrays = httpPart === 'querystring' ? parametersOfType(schema, ['array']) : [];
    const numbers = httpPart === 'body' ? [] : parametersOfType(schema, ['integer', 'number']);
    const known = httpPart === 'querystring' ? closedProperties(schema) : undefined;
    return (data: unknown) => {
      validate ??= httpPart === 'body' ? validatorFor(schema) : validatorFor(schema, coercing);
      const parameters = (data && typeof data === 'object' ? data : {}) as Record<string, unknown>;
      if (known) for (const name of Object.keys(parameters)) if (!known.has(name)) delete parameters[name];
      // A repeated query parameter given once (`?ids=a`) arrives as a string: it is a list of one.
      for (const name of arrays) if (typeof parameters[name] === 'string') parameters[name] = [parameters[name]];
      const given = numbers.map((name) => parameters[name]);
      const valid = validate(data);
      // No body at all (Fastify passes null): the body is missing, not of the wrong type.
      if (!valid && httpPart === 'body' && data === null) {
        return { error: new InputError([{ loc: ['body'], msg: 'Field required', type: 'missing' }]) };
      }
      const errors = [...(validate.errors ?? []), ...infinities(numbers, given, parameters, schema)];
      return valid && errors.length === 0
        ? { value: data }
        : { error: Object.assign(new Error('invalid'), { validation: errors }) };
    };
  };
}

/** The parameters of a query schema that refuses others (`additionalProperties: false`); undefined otherwise. */
function closedProperties(schema: TSchema): Set<string> | undefined {
  const object = schema as { properties?: Properties; additionalProperties?: unknown };
  if (object.additionalProperties !== false) return undefined;
  return new Set(Object.keys(object.properties ?? {}));
}

/** The names of the parameters whose type is one of `types`. */
function parametersOfType(schema: TSchema, types: string[]): string[] {
  const properties = (schema as { properties?: Properties }).properties ?? {};
  return Object.entries(properties)
    .filter(([, property]) => types.includes(property.type as string))
    .map(([name]) => name);
}

/**
 * Type errors for numeric parameters that ajv coerced to ±Infinity (`Infinity`, `1e400`): ajv's coercion lets
 * them through unchecked, and its range checks skip non-finite numbers.
 */
function infinities(names: string[], given: unknown[], parameters: Record<string, unknown>, schema: TSchema) {
  const properties = (schema as { properties?: Properties }).properties ?? {};
  return names.flatMap((name, i) => {
    const value = parameters[name];
    if (typeof value !== 'number' || Number.isFinite(value)) return [];
    const type = properties[name]?.type;
    return [{ keyword: 'type', instancePath: `/${name}`, schemaPath: '', params: { type }, data: given[i] }];
  });
}
