export type JsonObject = { [key: string]: unknown };

const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * `patch` applied to `target` as a JSON merge patch (RFC 7396): objects merge key by key, at any depth; `null`
 * removes a key (so the instance default applies again); anything else, arrays included, replaces.
 */
export function mergePatch(target: JsonObject, patch: JsonObject): JsonObject {
  const merged: JsonObject = { ...target };
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete merged[key];
    else if (isObject(value)) merged[key] = mergePatch(isObject(merged[key]) ? merged[key] : {}, value);
    else merged[key] = value;
  }
  return merged;
}
