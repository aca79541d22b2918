/** Keys whose values are credentials: they belong in `llm_api_key` or the custom secrets, never in plain settings. */
const CREDENTIAL_KEY = /(^|_)(api_?key|secret|password|token|access_key(_id)?|private_key)$/i;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The path of every key in `value`, at any depth, that names a credential and holds one (not null). */
export function credentialKeyPaths(value: unknown, path: (string | number)[] = []): (string | number)[][] {
  if (Array.isArray(value)) return value.flatMap((item, index) => credentialKeyPaths(item, [...path, index]));
  if (!isObject(value)) return [];
  return Object.entries(value).flatMap(([key, item]) =>
    CREDENTIAL_KEY.test(key) && item !== null ? [[...path, key]] : credentialKeyPaths(item, [...path, key]),
  );
}
