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

export const CustomSecretCreate = strictObject(
  'CustomSecretCreate',
  { name: secretName(), description: Type.Optional(description()), value: secretValue() },
  { description: 'A new custom secret.' },
);
export type CustomSecretCreate = Static<typeof CustomSecretCreate>;

export const CustomSecretUpdate = strictObject(
  'CustomSecretUpdate',
  {
    name: Type.Optional(secretName()),
    description: Type.Optional(description()),
    value: Type.Optional(secretValue()),
  },
  { description: 'A change to a custom secret: a new name, description or value (fields left out are kept).' },
);
export type CustomSecretUpdate = Static<typeof CustomSecretUpdate>;

export const CustomSecretWithoutValue = strictObject(
  'CustomSecretWithoutValue',
  {
    id: Type.String({ description: 'The secret’s id; paths take it or the name (as OpenHands does).' }),
    ...describedName(),
    ...timestamps(),
  },
  { description: 'A custom secret without its value.' },
);
export type CustomSecretWithoutValue = Static<typeof CustomSecretWithoutValue>;

export const CustomSecretPage = pageOf(
  'CustomSecretPage',
  CustomSecretWithoutValue,
  'A page of custom secrets, by name.',
);
export type CustomSecretPage = Static<typeof CustomSecretPage>;

export const ProviderToken = strictObject(
  'ProviderToken',
  {
    token: Type.Optional(
      nullable(Type.String({ minLength: 1, maxLength: 4096, writeOnly: true, description: 'Never returned.' })),
    ),
    user_id: Type.Optional(nullable(Type.String())),
    host: Type.Optional(nullable(Type.String({ maxLength: 255, description: 'Null for the public host.' }))),
  },
  { description: 'A Git provider token; a null or absent token keeps the stored one (to change only the host).' },
);
export type ProviderToken = Static<typeof ProviderToken>;

export const POSTProviderModel = strictObject(
  'POSTProviderModel',
  {
    provider_tokens: Type.Optional(
      byProvider(ref(ProviderToken), 'Tokens by provider; the providers left out keep theirs.'),
    ),
    mcp_config: Type.Optional(Type.Unknown({ description: 'Accepted for compatibility; ignored.' })),
  },
  { description: 'Store Git provider tokens.' },
);
export type POSTProviderModel = Static<typeof POSTProviderModel>;
