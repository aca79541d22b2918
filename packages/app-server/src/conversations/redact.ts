/** What stands for a secret wherever one would be shown. */
export const MASK = '**********';

/** `text` with every occurrence of each secret value (of 4 characters or more) replaced by the mask. */
export function redacted(text: string, secrets: Iterable<string>): string {
  let result = text;
  for (const secret of secrets) {
    if (secret.length >= 4) result = result.split(secret).join(MASK);
  }
  return result;
}
