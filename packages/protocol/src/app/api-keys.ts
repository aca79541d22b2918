import { type Static, Type } from '@sinclair/typebox';
import { nullable, ref, strictObject } from '../schema/builders.ts';
import { timestamp } from './common.ts';

/** API keys: `sk-bosun-…`, shown once when made, stored as a SHA-256 digest. */

export const API_KEY_PREFIX = 'sk-bosun-';

export const ApiKeyCreate = strictObject('ApiKeyCreate', 'A new API key.', {
  name: Type.Optional(nullable(Type.String({ minLength: 1, maxLength: 255 }))),
  expires_at: Type.Optional(nullable(timestamp('When the key stops working; null for never.'))),
  org_id: Type.Optional(
    nullable(Type.String({ format: 'uuid', description: 'Bind the key to this organization (a member’s).' })),
  ),
});
export type ApiKeyCreate = Static<typeof ApiKeyCreate>;

const apiKeyFields = {
  id: Type.String(),
  name: nullable(Type.String()),
  prefix: Type.String({ description: 'The first characters of the key, to recognise it.' }),
  created_at: timestamp(),
  last_used_at: nullable(timestamp()),
  expires_at: nullable(timestamp()),
  org_id: nullable(Type.String({ format: 'uuid' })),
};

export const ApiKey = strictObject('ApiKey', 'An API key, without its secret.', apiKeyFields);
export type ApiKey = Static<typeof ApiKey>;

export const ApiKeyCreated = strictObject('ApiKeyCreated', 'A new API key, with the key itself.', {
  ...apiKeyFields,
  key: Type.String({ description: 'The key: shown this once, never again.' }),
});
export type ApiKeyCreated = Static<typeof ApiKeyCreated>;

export const ApiKeyList = Type.Array(ref(ApiKey), { description: 'The caller’s API keys.' });
