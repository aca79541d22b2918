import { BosunApiError } from '@bosun/client';

/**
 * The messages of a 422's `detail[]`, by field: the last part of each `loc` that is a name (`['body', 'name']` →
 * `name`, `['body', 'provider_tokens', 'github', 'host']` → `host`), so each message shows next to its field.
 */
export function fieldErrors(error: unknown): Record<string, string> {
  if (!(error instanceof BosunApiError) || error.status !== 422 || !Array.isArray(error.detail)) return {};
  const errors: Record<string, string> = {};
  for (const item of error.detail as { loc?: unknown[]; msg?: string }[]) {
    const names = (item.loc ?? []).filter((part): part is string => typeof part === 'string' && part !== 'body');
    const name = names.at(-1) ?? '';
    errors[name] ??= item.msg ?? 'invalid';
  }
  return errors;
}

/** Whether `error` is a 422 whose messages all belong to one of `fields` (shown there, not as a notice too). */
export function onlyFieldErrors(error: unknown, fields: readonly string[]): boolean {
  const errors = Object.keys(fieldErrors(error));
  return errors.length > 0 && errors.every((name) => fields.includes(name));
}
