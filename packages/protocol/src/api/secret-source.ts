import { Type } from '@sinclair/typebox';

/** A secret given by value (a bare string is the same as `{"value": ...}`). */
export interface StaticSecretSource {
  kind?: 'StaticSecret';
  value: string;
  description?: string | null;
}

/**
 * A secret whose value is read from `url` (GET, the body as text) each time a tool needs it: a token that is
 * renewed meanwhile (a Git provider's) reaches the running conversation. `headers` authenticate the lookup and
 * are as secret as the value.
 */
export interface LookupSecretSource {
  kind: 'LookupSecret';
  url: string;
  headers?: Record<string, string>;
  description?: string | null;
}

export type SecretSource = string | StaticSecretSource | LookupSecretSource;

const description = { type: ['string', 'null'] };

/** A secret as a start or `POST .../secrets` gives it (OpenHands' `SecretSource`, plus a bare string). */
export const SecretValue = Type.Unsafe<SecretSource>({
  anyOf: [
    { type: 'string' },
    {
      type: 'object',
      properties: { kind: { const: 'StaticSecret' }, value: { type: 'string' }, description },
      required: ['value'],
      additionalProperties: false,
    },
    {
      type: 'object',
      properties: {
        kind: { const: 'LookupSecret' },
        url: { type: 'string', pattern: '^https?://', maxLength: 2048 },
        headers: {
          type: 'object',
          // An HTTP token as the name, no line break in the value: a header that could never be sent is refused.
          propertyNames: { pattern: "^[!#$%&'*+.^_`|~0-9A-Za-z-]+$", maxLength: 256 },
          additionalProperties: { type: 'string', pattern: '^[^\\r\\n\\u0000]*$', maxLength: 8192 },
          maxProperties: 32,
        },
        description,
      },
      required: ['kind', 'url'],
      additionalProperties: false,
    },
  ],
});

/** Whether a secret is looked up when used rather than given by value. */
export function isLookupSecret(secret: SecretSource): secret is LookupSecretSource {
  return typeof secret === 'object' && secret.kind === 'LookupSecret';
}
