import { createRequire } from 'node:module';
import { Type } from '@sinclair/typebox';
import { describe, expect, it, vi } from 'vitest';
import { type Json, clone } from './fixtures/conformance.ts';
import { eventCases } from './fixtures/events.ts';

/**
 * The validators the bundle's build compiles ahead of time (src/validation/precompiled.ts): recorded by one run,
 * written as code, served to the next. Each run here is a fresh load of the package with what the bundle's entry
 * would have handed it (the global it reads once, when it loads).
 */
const BUILD = Symbol.for('bosun.build-validators');
type Protocol = typeof import('../src/index.ts');
interface Handed {
  recording?: boolean;
  record?: () => string;
  chunks?: unknown[];
  counts?: { precompiled: number; compiled: number };
}

async function load(handed: Handed): Promise<Protocol> {
  const global = globalThis as { [BUILD]?: Handed };
  global[BUILD] = handed;
  vi.resetModules();
  try {
    return await import('../src/index.ts');
  } finally {
    delete global[BUILD];
  }
}

/** A query's parameters, as the HTTP layer validates them (coerced, not strict), referencing a named shape too. */
const Query = Type.Object(
  { limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })), id: Type.Optional(Type.String()) },
  { additionalProperties: false },
);

/** Every event kind at its smallest and largest, and broken ways: a wrong type, a missing field, an extra one. */
function eventSamples(): Json[] {
  return eventCases.flatMap(({ minimal, maximal }) => [
    clone(minimal),
    clone(maximal),
    { ...(minimal as object), id: 7 },
    { ...(minimal as object), extra: true },
    { ...(minimal as object), kind: 'NoSuchEvent' },
    { ...(minimal as object), timestamp: 'yesterday' },
  ]);
}
const querySamples = [{ limit: '5' }, { limit: '0' }, { limit: 'x', id: 3 }, { other: 1 }, {}];

/** What each validator answers for each sample: the value after (defaults filled in, coerced) and the errors. */
function answers(protocol: Protocol) {
  // As the HTTP layer does: one coercing ajv per server, one validator per route.
  const validate = protocol.validatorFor(Query, protocol.lazyProtocolAjv({ coerceTypes: true }));
  return {
    events: eventSamples().map((sample) => protocol.safeParseEvent(sample)),
    queries: querySamples.map((sample) => {
      const value = structuredClone(sample);
      const valid = validate(value);
      return { valid, value, errors: protocol.toValidationErrors(validate.errors ?? []) };
    }),
  };
}

describe('validators compiled ahead of time', () => {
  it('answer exactly what compiled ones answer, and none is compiled again', async () => {
    const expected = answers(await load({}));
    const recording: Handed = { recording: true };
    expect(answers(await load(recording))).toEqual(expected);
    const text = recording.record?.() ?? '';
    expect(text).toContain('module.exports.chunks');

    // The written module, loaded as the bundle's entry loads it: CommonJS, requiring ajv's runtime helpers.
    const module = { exports: {} as { chunks?: unknown[] } };
    new Function('module', 'exports', 'require', text)(module, module.exports, createRequire(import.meta.url));
    const served: Handed = { chunks: module.exports.chunks, counts: { precompiled: 0, compiled: 0 } };
    const actual = answers(await load(served));

    expect(actual).toEqual(expected);
    expect(served.counts?.compiled).toBe(0);
    expect(served.counts?.precompiled).toBeGreaterThanOrEqual(2);
    // The samples were read: valid and invalid ones, with their errors.
    const failures = expected.events.filter((result) => !result.ok);
    // An unknown kind and a number for an id fail in every kind, at least.
    expect(failures.length).toBeGreaterThanOrEqual(eventCases.length * 2);
    expect(expected.events.length - failures.length).toBeGreaterThanOrEqual(eventCases.length * 2);
    expect(expected.queries.map((result) => result.valid)).toEqual([true, false, false, false, true]);
  });

  it('compiles, as before, what the build did not record', async () => {
    const served: Handed = { chunks: [], counts: { precompiled: 0, compiled: 0 } };
    const protocol = await load(served);
    const compiled = answers(protocol);
    expect(compiled.queries[0]).toMatchObject({ valid: true, value: { limit: 5 } });
    // Nothing handed over: no key is computed, nothing counted.
    expect(served.counts).toEqual({ precompiled: 0, compiled: 0 });
    const withOne: Handed = {
      chunks: [{ kind: 'strict', keys: ['$id:None'], load: () => ({}) }],
      counts: { precompiled: 0, compiled: 0 },
    };
    answers(await load(withOne));
    expect(withOne.counts?.precompiled).toBe(0);
    expect(withOne.counts?.compiled).toBeGreaterThanOrEqual(2);
  });
});
