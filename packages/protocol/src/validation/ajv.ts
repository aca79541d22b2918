import type { TSchema } from '@sinclair/typebox';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { protocolSchemas } from '../registry.ts';
import { forAjv } from './for-ajv.ts';

/**
 * The one ajv instance that validates the wire model: strict (unknown properties are rejected, never stripped;
 * nothing is coerced), every error reported, defaults filled in on the validated value.
 */
let instance: Ajv2020 | undefined;

/** ISO-8601 date-time, with or without a zone (a time without one is read as UTC). */
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/i;

const lookup = (id: string) => protocolSchemas.get(id) as Record<string, unknown> | undefined;

export function protocolAjv(): Ajv2020 {
  instance ??= newProtocolAjv();
  return instance;
}

/**
 * A new ajv instance that knows every shape of the wire model by `$id`. `overrides` adjusts its options, for
 * example `coerceTypes` for query strings, where every value arrives as a string.
 */
export function newProtocolAjv(overrides: { coerceTypes?: boolean } = {}): Ajv2020 {
  const ajv = new Ajv2020({
    discriminator: true,
    allErrors: true,
    useDefaults: true,
    coerceTypes: false,
    removeAdditional: false,
    strict: true,
    strictRequired: false,
    strictTypes: false,
    verbose: true,
    // Compiling the unions is the slow part of startup; ajv's code optimization passes roughly double it for
    // no measurable gain in validation speed.
    // Compiling the unions is the slow part of startup; ajv's code optimization passes add about 60 % to it
    // for no measurable gain in validation speed (bench:protocol).
    code: { esm: true, optimize: false },
    // The shapes are ours and checked against the meta-schema by the conformance suite; checking them again
    // at every start costs ~40 ms per instance.
    validateSchema: false,
    ...overrides,
  });
  ajv.addFormat('uuid', /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i);
  ajv.addFormat('date-time', {
    type: 'string',
    validate: (value) => ISO_DATE_TIME.test(value) && !Number.isNaN(Date.parse(value)),
  });
  for (const schema of protocolSchemas.values()) ajv.addSchema(forAjv(schema, lookup) as object);
  return ajv;
}

const compiled = new WeakMap<object, ValidateFunction>();

/**
 * A validator for `schema`: a named shape of the wire model, or any schema that references them by `$id`
 * (request bodies and parameters of the agent server). Compiled once per schema object.
 */
export function validatorFor(schema: TSchema, ajv: Ajv2020 = protocolAjv()): ValidateFunction {
  const cache = ajv === instance ? compiled : undefined;
  let validate = cache?.get(schema);
  if (validate) return validate;
  const id = (schema as { $id?: string }).$id;
  validate =
    id && protocolSchemas.get(id) === schema
      ? (ajv.getSchema(id) as ValidateFunction)
      : ajv.compile(forAjv(withoutId(schema), lookup) as object);
  cache?.set(schema, validate);
  return validate;
}

function withoutId(schema: TSchema): object {
  const { $id: _id, ...rest } = schema as TSchema & { $id?: string };
  return rest;
}
