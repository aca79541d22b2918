import { type Static, Type } from '@sinclair/typebox';
import { nullable, ref, strictObject } from '../schema/builders.ts';
import { describedName } from '../schema/fields.ts';
import { byProvider, pageOf, timestamps } from './common.ts';

/** A user's custom secrets (given to their conversations by name) and their Git provider tokens. */

export const SECRET_NAME_PATTERN = '^[A-Za-z_][A-Za-z0-9_]{0,127}$';

const secretName = () =>
  Type.String({
    pattern: SECRET_NAME_PATTERN,
    description: 'An environment variable name: a letter or `_`, then letters, digits or `_` (at most 128).',
  });
const description = () => nullable(Type.String({ maxLength: 1000, description: 'What the secret is for.' }));
const secretValue = () =>
  Type.String({ minLength: 1, maxLength: 65536, writeOnly: true, description: 'Never returned.' });

export const CustomSecretCreate = strictObject('CustomSecretCreate', 'A new custom secret.', {
  name: secretName(),
  description: Type.Optional(description()),
  value: secretValue(),
});
export type CustomSecretCreate = Static<typeof CustomSecretCreate>;

export const CustomSecretUpdate = strictObject(
  'CustomSecretUpdate',
  'A change to a custom secret: a new name, description or value (fields left out are kept).',
  {
    name: Type.Optional(secretName()),
    description: Type.Optional(description()),
    value: Type.Optional(secretValue()),
  },
);
export type CustomSecretUpdate = Static<typeof CustomSecretUpdate>;

export const CustomSecretWithoutValue = strictObject('CustomSecretWithoutValue', 'A custom secret without its value.', {
  id: Type.String({ description: 'The secret’s id; paths take it or the name (as OpenHands does).' }),
  ...describedName(),
  ...timestamps(),
});
export type CustomSecretWithoutValue = Static<typeof CustomSecretWithoutValue>;

export const CustomSecretPage = pageOf(
  'CustomSecretPage',
  'A page of custom secrets, by name.',
  CustomSecretWithoutValue,
);
export type CustomSecretPage = Static<typeof CustomSecretPage>;

export const ProviderToken = strictObject(
  'ProviderToken',
  'A Git provider token; a null or absent token keeps the stored one (to change only the host).',
  {
    token: Type.Optional(
      nullable(Type.String({ minLength: 1, maxLength: 4096, writeOnly: true, description: 'Never returned.' })),
    ),
    user_id: Type.Optional(nullable(Type.String())),
    host: Type.Optional(nullable(Type.String({ maxLength: 255, description: 'Null for the public host.' }))),
  },
);
export type ProviderToken = Static<typeof ProviderToken>;

export const POSTProviderModel = strictObject('POSTProviderModel', 'Store Git provider tokens.', {
  provider_tokens: Type.Optional(
    byProvider(ref(ProviderToken), 'Tokens by provider; the providers left out keep theirs.'),
  ),
  mcp_config: Type.Optional(Type.Unknown({ description: 'Accepted for compatibility; ignored.' })),
});
export type POSTProviderModel = Static<typeof POSTProviderModel>;
