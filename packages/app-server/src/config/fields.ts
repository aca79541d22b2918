import { Type } from '@sinclair/typebox';

/** An optional string setting. */
export const optional = (options: Parameters<typeof Type.String>[0]) => Type.Optional(Type.String(options));

/** An optional URL setting of one of `schemes`. */
export const url = (schemes: string[], description: string, extra: Record<string, unknown> = {}) =>
  optional({
    pattern: `^(${schemes.join('|')})://`,
    expected: `a ${schemes.map((scheme) => `${scheme}://`).join(' or ')} URL`,
    description,
    ...extra,
  });
