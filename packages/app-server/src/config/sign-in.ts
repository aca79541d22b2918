import { type Static, Type } from '@sinclair/typebox';
import { url, optional } from './fields.ts';
import { GIT_PROVIDER_ENTRY, gitProviderProblems } from './sign-in-git-providers.ts';

/** The settings of sign-in through an OpenID Connect issuer (part of the app server's one settings schema). */
export const OIDC_SETTINGS = {
  oidc_issuer_url: url(
    ['http', 'https'],
    'OpenID Connect issuer people sign in with (Keycloak: https://<host>/realms/<realm>); none: no such sign-in.',
  ),
  oidc_client_id: optional({ minLength: 1, description: "This server's client id at the issuer." }),
  oidc_client_secret: optional({ minLength: 1, secret: true, description: 'Its client secret (confidential client).' }),
  oidc_scopes: Type.String({
    pattern: '(^|\\s)openid(\\s|$)',
    expected: 'space-separated scopes, openid among them',
    default: 'openid email profile',
    description: 'Scopes asked of the issuer.',
  }),
  oidc_providers: Type.Array(Type.String({ pattern: '^[A-Za-z0-9_.-]{1,64}$' }), {
    default: [],
    expected: 'a list (comma-separated in a variable) of identity-provider aliases',
    description:
      'Identity providers behind the issuer shown as their own login buttons, sent as kc_idp_hint (Keycloak), ' +
      'e.g. github,gitlab.',
  }),
  oidc_git_providers: Type.Optional(
    Type.Array(Type.String({ pattern: GIT_PROVIDER_ENTRY }), {
      expected: 'a list (comma-separated in a variable) of alias=provider_type, alias=provider_type@host or alias=none',
      description:
        "The Git provider whose token a sign-in through each identity provider brings (Keycloak's stored token, " +
        'read at <issuer>/broker/<alias>/token): e.g. corp=gitlab@gitlab.example.com, bbdc=bitbucket_data_center@' +
        'git.example.com, google=none; an alias named after a provider type (github, gitlab...) needs no entry.',
    }),
  ),
};

/** The Git provider apps' OAuth clients, which renew the tokens a sign-in brings. */
export const GIT_APP_SETTINGS = {
  git_github_app_client_id: optional({
    description: 'Client ID of the GitHub App signed in through (renews its tokens).',
  }),
  git_github_app_client_secret: optional({ minLength: 1, secret: true, description: 'Client secret of that App.' }),
  git_gitlab_app_client_id: optional({ description: 'The same for the GitLab application (2-hour tokens).' }),
  git_gitlab_app_client_secret: optional({ minLength: 1, secret: true, description: 'Its secret.' }),
  git_bitbucket_app_client_id: optional({ description: 'The same for the Bitbucket Cloud OAuth consumer (its key).' }),
  git_bitbucket_app_client_secret: optional({ minLength: 1, secret: true, description: 'Its secret.' }),
};

const SignInSettings = Type.Object({ ...OIDC_SETTINGS, ...GIT_APP_SETTINGS });

/** What the sign-in keys say together that none says alone: one line per problem, naming the keys. */
export function signInProblems(config: Static<typeof SignInSettings>): string[] {
  const problems: string[] = [];
  const oidc = (['oidc_client_id', 'oidc_client_secret'] as const).filter((key) => config[key] !== undefined);
  if (config.oidc_issuer_url !== undefined && config.oidc_client_id === undefined) {
    problems.push('oidc_client_id: needed when oidc_issuer_url is set');
  } else if (config.oidc_issuer_url === undefined && (oidc.length > 0 || (config.oidc_providers ?? []).length > 0)) {
    problems.push('oidc_issuer_url: needed when oidc_client_id, oidc_client_secret or oidc_providers is set');
  }
  problems.push(...gitProviderProblems(config.oidc_git_providers ?? [], config.oidc_providers ?? []));
  for (const provider of ['github', 'gitlab', 'bitbucket'] as const) {
    const [id, secret] = [`git_${provider}_app_client_id`, `git_${provider}_app_client_secret`] as const;
    if ((config[id] === undefined) !== (config[secret] === undefined))
      problems.push(`${id}, ${secret}: give both or neither`);
  }
  return problems;
}
