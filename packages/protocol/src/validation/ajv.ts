import type { TSchema } from '@sinclair/typebox';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { protocolSchemas } from '../schema/registry.ts';
import { forAjv } from './for-ajv.ts';

/**
 * The one ajv instance that validates the wire model: strict (unknown properties are rejected, never stripped;
 * nothing is coerced), every error reported, defaults filled in on the validated value.
 */
let instance: Ajv2020 | undefined;

const lookup = (id: string) => protocolSchemas.get(id) as Record<string, unknown> | undefined;

export function protocolAjv(): Ajv2020 {
  if (instance) return instance;
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
    code: { esm: true },
  });
  for (const schema of protocolSchemas.values()) ajv.addSchema(forAjv(schema, lookup) as object);
  instance = ajv;
  return ajv;
}

const compiled = new WeakMap<object, ValidateFunction>();

/**
 * A validator for `schema`: a named shape of the wire model, or any schema that references them by `$id`
 * (request bodies and parameters of the agent server). Compiled once per schema object.
 */
export function validatorFor(schema: TSchema): ValidateFunction {
  let validate = compiled.get(schema);
  if (validate) return validate;
  const ajv = protocolAjv();
  const id = (schema as { $id?: string }).$id;
  validate =
    id && protocolSchemas.get(id) === schema
      ? (ajv.getSchema(id) as ValidateFunction)
      : ajv.compile(forAjv(withoutId(schema), lookup) as object);
  compiled.set(schema, validate);
  return validate;
}

function withoutId(schema: TSchema): object {
  const { $id: _id, ...rest } = schema as TSchema & { $id?: string };
  return rest;
}
