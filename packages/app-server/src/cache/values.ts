import type { JsonValue, SetOptions, WindowOptions } from './cache.ts';

/** The text a value is stored as; a value JSON cannot carry (`undefined`, a function) is a `TypeError`. */
export function encodeValue(value: JsonValue): string {
  const text = JSON.stringify(value) as string | undefined;
  if (text === undefined) throw new TypeError(`A cache value must be JSON, not ${typeof value}`);
  return text;
}

export function decodeValue(text: string): JsonValue {
  return JSON.parse(text) as JsonValue;
}

function checkPositiveInteger(name: string, value: number): void {
  if (!Number.isSafeInteger(value) || value <= 0) {
    throw new RangeError(`${name} must be a positive integer, got ${String(value)}`);
  }
}

export function checkKey(kind: 'key' | 'channel', name: string): void {
  if (typeof name !== 'string' || name.length === 0) throw new TypeError(`A cache ${kind} must be a non-empty string`);
}

export function checkSetOptions(options: SetOptions | undefined): void {
  if (options?.ttlMs !== undefined) checkPositiveInteger('ttlMs', options.ttlMs);
}

export function checkWindowOptions(options: WindowOptions): void {
  checkPositiveInteger('limit', options.limit);
  checkPositiveInteger('windowMs', options.windowMs);
  if (options.mode !== undefined && options.mode !== 'fixed' && options.mode !== 'sliding') {
    throw new RangeError(`mode must be "fixed" or "sliding", got ${String(options.mode)}`);
  }
}
