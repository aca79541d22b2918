import { type Static, Type } from '@sinclair/typebox';
import { ref, strictObject } from './schema/builders.ts';

export const ValidationError = strictObject('ValidationError', 'One validation problem.', {
  loc: Type.Array(Type.Union([Type.String(), Type.Integer()]), {
    description: 'Where the error is: a path of property names and array indexes.',
  }),
  msg: Type.String({ description: 'What is wrong, for a human.' }),
  type: Type.String({ description: 'What is wrong, for a program (for example `missing`, `extra_forbidden`).' }),
});
export type ValidationError = Static<typeof ValidationError>;

export const HTTPValidationError = strictObject(
  'HTTPValidationError',
  'The body of a 422 response: every validation problem of the request.',
  { detail: Type.Optional(Type.Array(ref(ValidationError))) },
);
export type HTTPValidationError = Static<typeof HTTPValidationError>;

export const HTTPError = strictObject(
  'HTTPError',
  'The body of every 4xx response but 422 (not found, conflict, unauthorized, too large, ...).',
  { detail: Type.String({ description: 'What went wrong, for a human.' }) },
);
export type HTTPError = Static<typeof HTTPError>;

/** Thrown by the `parse*` functions: carries every problem found, each with `loc`, `msg` and `type`. */
export class ProtocolValidationError extends Error {
  readonly errors: ValidationError[];

  constructor(shape: string, errors: ValidationError[]) {
    super(
      `invalid ${shape}: ${errors.map((e) => `${e.loc.length ? e.loc.join('.') : '(root)'}: ${e.msg}`).join('; ')}`,
    );
    this.name = 'ProtocolValidationError';
    this.errors = errors;
  }
}
