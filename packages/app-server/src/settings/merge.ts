export type JsonValue = string | number | boolean | null | JsonValue[] | JsonObject;
export interface JsonObject {
  [key: string]: JsonValue;
}

const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * `diff` deep-merged into `base`, as OpenHands' `*_settings_diff`: objects merge key by key, a `null` removes a
 * key, anything else (arrays too) replaces. Neither input is changed.
 */
export function deepMerge(base: JsonObject, diff: JsonObject): JsonObject {
  const merged: JsonObject = { ...base };
  for (const [key, value] of Object.entries(diff)) {
    if (value === null) delete merged[key];
    else if (isObject(value) && isObject(merged[key])) merged[key] = deepMerge(merged[key] as JsonObject, value);
    else merged[key] = value;
  }
  return merged;
}

/** The path of every key in `value` (at any depth) that names a secret, for example `["llm", "api_key"]`. */
export function secretKeyPaths(value: JsonValue, path: (string | number)[] = []): (string | number)[][] {
  if (Array.isArray(value)) return value.flatMap((item, index) => secretKeyPaths(item, [...path, index]));
  if (!isObject(value)) return [];
  return Object.entries(value).flatMap(([key, item]) =>
    SECRET_KEY.test(key) && item !== null ? [[...path, key]] : secretKeyPaths(item, [...path, key]),
  );
}

/** Keys whose values are credentials: they belong in `llm_api_key` or the custom secrets, never in plain settings. */
const SECRET_KEY = /(^|_)(api_?key|secret|password|token|access_key(_id)?|private_key)$/i;
