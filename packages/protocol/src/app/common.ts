import { type Static, type TOptional, type TProperties, type TSchema, Type } from '@sinclair/typebox';
import { type Named, namedEnum, nullable, ref, strictObject } from '../schema/builders.ts';

/** Shapes shared by the app server's resources. */

export const EditResponse = strictObject('EditResponse', 'The answer to a change that returns nothing else.', {
  message: Type.String({ description: 'What was done, for a human.' }),
});
export type EditResponse = Static<typeof EditResponse>;

export const PROVIDER_TYPES = [
  'github',
  'gitlab',
  'bitbucket',
  'bitbucket_data_center',
  'forgejo',
  'azure_devops',
  'enterprise_sso',
] as const;

export const ProviderType = namedEnum('ProviderType', 'A Git hosting provider.', PROVIDER_TYPES);
export type ProviderType = Static<typeof ProviderType>;

/** An object keyed by Git provider, each key optional and no other key allowed. */
export function byProvider<T extends TSchema>(value: T, description: string) {
  const properties = Object.fromEntries(PROVIDER_TYPES.map((provider) => [provider, Type.Optional(value)]));
  return Type.Object(properties as unknown as Record<ProviderType, TOptional<T>>, {
    additionalProperties: false,
    description,
  });
}

/** A timestamp as the app server writes it: ISO-8601 UTC with `Z`. */
export const timestamp = (description?: string) =>
  Type.String({ format: 'date-time', ...(description ? { description } : {}) });

/** The query of a page of results: `page_id` from the previous page's `next_page_id`, and a size. */
export const pageQuery = {
  page_id: Type.Optional(Type.String({ description: 'The `next_page_id` of the previous page.' })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 100, description: 'Items per page.' })),
};

/** When a record was made and last changed. */
export const timestamps = () => ({ created_at: timestamp(), updated_at: timestamp() });

/**
 * Where a plugin or a marketplace is fetched from: the source, the ref and the folder inside the repository, each
 * with its description where the shape gives one.
 */
export function gitLocation(described: { source?: string; ref?: string; repo_path?: string } = {}) {
  const text = (description: string | undefined) => Type.String(description ? { description } : {});
  return {
    source: text(described.source),
    ref: nullable(text(described.ref)),
    repo_path: nullable(text(described.repo_path)),
  };
}

export const nextPageId = () =>
  Type.Union([Type.String(), Type.Null()], { description: 'Where the next page starts; null on the last page.' });

/** A page of `item`s, `{items, next_page_id}`, with any `extra` properties of this listing. */
export function pageOf<T extends Named, P extends TProperties = Record<never, never>>(
  name: string,
  description: string,
  item: T,
  extra: P = {} as P,
) {
  return strictObject(name, description, { items: Type.Array(ref(item)), next_page_id: nextPageId(), ...extra });
}
