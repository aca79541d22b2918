import type { TSchema } from '@sinclair/typebox';
import { _ } from 'ajv';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { protocolSchemas } from '../registry.ts';
import { forAjv } from './for-ajv.ts';
import { PROTOCOL_FORMATS } from './formats.ts';
import { type AjvKind, hasPrecompiled, precompiledValidator, recordValidator, recording } from './precompiled.ts';

/**
 * The one ajv instance that validates the wire model: strict (unknown properties are rejected, never stripped;
 * nothing is coerced), every error reported, defaults filled in on the validated value.
 */
let instance: Ajv2020 | undefined;

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
    code: recording
      ? // The build's recording run: each validator's code is kept, to be written (precompiled.ts).
        { source: true, esm: false, optimize: false, formats: _`formats` }
      : { esm: true, optimize: false },
    // The shapes are ours and checked against the meta-schema by the conformance suite; checking them again
    // at every start costs ~40 ms per instance.
    validateSchema: false,
    ...overrides,
  });
  for (const [name, format] of Object.entries(PROTOCOL_FORMATS)) ajv.addFormat(name, format);
  for (const schema of protocolSchemas.values()) ajv.addSchema(forAjv(schema, lookup) as object);
  kinds.set(ajv, overrides.coerceTypes ? 'coercing' : 'strict');
  return ajv;
}

const kinds = new WeakMap<Ajv2020, AjvKind>();

/** An ajv of the wire model made when first needed: a validator the build compiled ahead of time needs none. */
export interface LazyAjv {
  kind: AjvKind;
  get(): Ajv2020;
}

/** A `LazyAjv` of `newProtocolAjv(overrides)`. */
export function lazyProtocolAjv(overrides: { coerceTypes?: boolean } = {}): LazyAjv {
  let made: Ajv2020 | undefined;
  const get = () => {
    made ??= newProtocolAjv(overrides);
    return made;
  };
  return { kind: overrides.coerceTypes ? 'coercing' : 'strict', get };
}

/** The one strict ajv (`protocolAjv`), as a `LazyAjv`: what validators are for by default. */
const strict: LazyAjv = { kind: 'strict', get: protocolAjv };

const compiled = new WeakMap<object, ValidateFunction>();

/**
 * A validator for `schema`: a named shape of the wire model, or any schema that references them by `$id`
 * (request bodies and parameters of the agent server). Compiled once per schema object by the strict ajv.
 */
export function validatorFor(schema: TSchema, ajv: Ajv2020 | LazyAjv = strict): ValidateFunction {
  const cache = ajv === strict ? compiled : undefined;
  let validate = cache?.get(schema);
  if (validate) return validate;
  validate = 'get' in ajv ? compiledFor(schema, ajv) : compiledFor(schema, { kind: kinds.get(ajv), get: () => ajv });
  cache?.set(schema, validate);
  return validate;
}

let recordedIds = 0;

/** The validator of `schema`: precompiled by the build when it recorded it (precompiled.ts), else compiled now. */
function compiledFor(schema: TSchema, { kind, get }: { kind: AjvKind | undefined; get(): Ajv2020 }): ValidateFunction {
  const id = (schema as { $id?: string }).$id;
  const named = id !== undefined && protocolSchemas.get(id) === schema;
  const shape = named ? undefined : forAjv(withoutId(schema), lookup);
  // A named shape is known by its id; any other by what it asks, written out.
  const key = kind && (hasPrecompiled || recording) ? (named ? `$id:${id}` : JSON.stringify(shape)) : undefined;
  const precompiled = kind && key !== undefined ? precompiledValidator(kind, key) : undefined;
  if (precompiled) return precompiled;
  const ajv = get();
  if (named) {
    if (kind && key !== undefined) recordValidator(ajv, kind, key, id);
    return ajv.getSchema(id) as ValidateFunction;
  }
  if (!(kind && key !== undefined && recording)) return ajv.compile(shape as object);
  // Recorded under an id of its own: ajv's standalone code names what it exports by id.
  // Relative, as the shapes' ids are: the references inside resolve as they do without it.
  const recordedId = `recorded-${++recordedIds}`;
  ajv.addSchema({ ...(shape as object), $id: recordedId });
  recordValidator(ajv, kind, key, recordedId);
  return ajv.getSchema(recordedId) as ValidateFunction;
}

function withoutId(schema: TSchema): object {
  const { $id: _id, ...rest } = schema as TSchema & { $id?: string };
  return rest;
}
