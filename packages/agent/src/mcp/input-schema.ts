import { toValidationErrors } from '@bosun/protocol';
import { Ajv, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';

/**
 * A tool's `inputSchema` as the LLM gets it and as its arguments are checked. MCP servers send JSON Schema,
 * draft-07 by default (the SDK's servers say so in `$schema`), 2020-12 when they declare it.
 */

const options = { allErrors: true, verbose: true, strict: false, validateFormats: false, coerceTypes: false } as const;
let draft7: Ajv | undefined;
let draft2020: Ajv2020 | undefined;

function ajvFor(schema: Record<string, unknown>): Ajv | Ajv2020 {
  if (String(schema.$schema ?? '').includes('2020-12')) {
    draft2020 ??= new Ajv2020(options);
    return draft2020;
  }
  draft7 ??= new Ajv(options);
  return draft7;
}

/** The schema an LLM gets: an object schema without `$schema`/`$id` (providers reject or ignore them). */
export function llmSchema(inputSchema: Record<string, unknown>): Record<string, unknown> {
  const { $schema: _schema, $id: _id, ...rest } = inputSchema;
  return { ...rest, type: 'object', properties: (rest.properties as object | undefined) ?? {} };
}

export type ArgumentCheck = (args: Record<string, unknown>) => string[];

/**
 * A check of a tool's arguments against its `inputSchema`: the problems, `path: message`, or none. A schema
 * ajv cannot compile is not checked here (the server still checks the call).
 */
export function argumentCheck(inputSchema: Record<string, unknown>): ArgumentCheck {
  let validate: ValidateFunction;
  try {
    const { $id: _id, ...schema } = inputSchema;
    validate = ajvFor(schema).compile(schema);
  } catch {
    return () => [];
  }
  return (args) => {
    if (validate(args)) return [];
    return toValidationErrors(validate.errors ?? []).map(
      (error) => `${error.loc.length ? error.loc.join('.') : '(arguments)'}: ${error.msg}`,
    );
  };
}
