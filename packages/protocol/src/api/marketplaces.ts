import { type Static, Type } from '@sinclair/typebox';
import { nullable, strictObject, withDefault } from '../schema/builders.ts';

/**
 * Marketplaces: Git repositories listing plugins in a `marketplace.json` (Claude Code's format). Registering
 * one makes its plugins available; `auto_load` also loads them into every conversation that registers it.
 */

export const RegisteredMarketplace = strictObject(
  'RegisteredMarketplace',
  {
    name: Type.String({
      minLength: 1,
      maxLength: 64,
      pattern: '^[A-Za-z0-9][A-Za-z0-9._-]*$',
      description: 'The name plugins are referred to by (`plugin@name`); unique among the registrations.',
    }),
    source: Type.String({
      minLength: 1,
      description:
        'The marketplace repository: `<provider>:<owner>/<repo>` (`github`, `gitlab`, `bitbucket`) or a Git URL.',
    }),
    ref: Type.Optional(
      nullable(Type.String({ minLength: 1, description: 'Branch, tag or commit; default: the default branch.' })),
    ),
    repo_path: Type.Optional(
      nullable(Type.String({ minLength: 1, description: 'Directory of the marketplace inside the repository.' })),
    ),
    auto_load: withDefault(
      Type.Union([Type.Boolean(), Type.Array(Type.String({ minLength: 1 }))], {
        description:
          '`true`: every plugin of the marketplace is loaded into the conversation; a list: those plugins; `false`: none (available only).',
      }),
      false,
    ),
  },
  { description: 'A marketplace of plugins registered for a conversation.' },
);
export type RegisteredMarketplace = Static<typeof RegisteredMarketplace>;
