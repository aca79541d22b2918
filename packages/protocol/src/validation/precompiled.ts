import type { Ajv2020, ValidateFunction } from 'ajv/dist/2020.js';
import standalone from 'ajv/dist/standalone/index.js';
import { PROTOCOL_FORMATS } from './formats.ts';

/**
 * Validators compiled ahead of time. Compiling the wire model's validators was most of an agent server's first
 * conversation (the event union alone: 200 ms of CPU), and every sandbox starts one. The bundle's build runs an
 * agent server that records what it compiled and writes it as code (`validators.cjs` beside the bundle); each start
 * of that bundle then takes those validators instead of compiling them again. A validator not recorded, or any run
 * without the file (the TypeScript sources, a browser), is compiled as before.
 *
 * The bundle's entry hands the file over through a global (it runs before any of the bundle's code).
 */
const BUILD_VALIDATORS = Symbol.for('bosun.build-validators');

/** Which ajv a validator belongs to: strict (bodies, the wire model) or coercing (path and query parameters). */
export type AjvKind = 'strict' | 'coercing';

/** One ajv instance's validators as code: their keys, in the order of the exports `v0`, `v1`... of `load`. */
export interface PrecompiledChunk {
  kind: AjvKind;
  keys: string[];
  /** Runs the chunk's code with the wire model's formats; answers its exports. */
  load(formats: Record<string, unknown>): Record<string, ValidateFunction>;
}

/** What the bundle's entry gives: the chunks to serve from, or (the build's run) a request to record. */
export interface BuildValidators {
  chunks?: PrecompiledChunk[];
  /** Set by the build's run: ajv keeps each validator's code, and `record` is filled in for the entry to call. */
  recording?: boolean;
  /** The recorded validators as the text of a CommonJS module (see `moduleText`). */
  record?: () => string;
  /** How many validators were served precompiled, and how many compiled here (the build's test reads it). */
  counts?: { precompiled: number; compiled: number };
}

const build = (globalThis as { [BUILD_VALIDATORS]?: BuildValidators })[BUILD_VALIDATORS];

/** Whether the build's run records: its ajv instances keep their code (`code.source`), which standalone needs. */
export const recording = build?.recording === true;

const served = new Map<AjvKind, Map<string, () => ValidateFunction>>();
if (build?.chunks) {
  for (const chunk of build.chunks) {
    const byKey = served.get(chunk.kind) ?? new Map<string, () => ValidateFunction>();
    served.set(chunk.kind, byKey);
    let loaded: Record<string, ValidateFunction> | undefined;
    // A chunk's code runs on its first use.
    chunk.keys.forEach((key, index) => {
      byKey.set(key, () => {
        loaded ??= chunk.load(PROTOCOL_FORMATS);
        return loaded[`v${index}`] as ValidateFunction;
      });
    });
  }
}

/** Whether any validator was handed over: only then is a validator's key worth computing. */
export const hasPrecompiled = served.size > 0;

/** The precompiled validator of `key` for an ajv of `kind`, if the build recorded it. */
export function precompiledValidator(kind: AjvKind, key: string): ValidateFunction | undefined {
  const validator = served.get(kind)?.get(key);
  if (!validator) {
    if (build?.counts) build.counts.compiled++;
    return undefined;
  }
  if (build?.counts) build.counts.precompiled++;
  return validator();
}

const recorded: { ajv: Ajv2020; kind: AjvKind; key: string; id: string }[] = [];

/**
 * Notes that `ajv` compiled the validator of `key` under `id` (its `$id`, or one given for the recording): the
 * build's run writes it. Nothing happens outside that run.
 */
export function recordValidator(ajv: Ajv2020, kind: AjvKind, key: string, id: string): void {
  if (!recording || recorded.some((entry) => entry.ajv === ajv && entry.key === key)) return;
  recorded.push({ ajv, kind, key, id });
}

if (build?.recording) build.record = () => moduleText(recorded);

/**
 * A CommonJS module exporting `chunks`: for each ajv instance, the keys and the code of its validators (ajv's
 * standalone code, wrapped in a function of the formats, which are functions and patterns of the running process).
 */
export function moduleText(entries: readonly { ajv: Ajv2020; kind: AjvKind; key: string; id: string }[]): string {
  const instances = [...new Set(entries.map((entry) => entry.ajv))];
  const chunks = instances.map((ajv) => {
    const own = entries.filter((entry) => entry.ajv === ajv);
    const exports = Object.fromEntries(own.map((entry, index) => [`v${index}`, entry.id]));
    // A CommonJS module: its function is its default export.
    const code = standalone.default(ajv, exports);
    return [
      '{',
      `kind: ${JSON.stringify(own[0]?.kind)},`,
      `keys: ${JSON.stringify(own.map((entry) => entry.key))},`,
      'load(formats) {',
      'const exports = {};',
      code,
      ';return exports;',
      '},',
      '}',
    ].join('\n');
  });
  return `"use strict";\n// Written by the build (scripts/build.mjs): the validators an agent server compiles until it is ready.\nmodule.exports.chunks = [\n${chunks.join(',\n')}\n];\n`;
}
