import { type Static, Type } from '@sinclair/typebox';
import { ref, strictObject } from '../schema/builders.ts';

/** Signing in to the app server through an OpenID Connect issuer. */

export const LoginMethod = strictObject('LoginMethod', 'A way to sign in that a web client shows as a button.', {
  id: Type.String({ description: '`oidc` for the issuer itself, else the identity provider’s alias at the issuer.' }),
  name: Type.String({ description: 'What the button says.' }),
  login_url: Type.String({ description: 'Where the button goes: the login route, which redirects to the issuer.' }),
});
export type LoginMethod = Static<typeof LoginMethod>;

export const LoginMethodList = Type.Array(ref(LoginMethod), {
  $id: 'LoginMethodList',
  description: 'The ways to sign in (empty when no issuer is configured; the one-time sign-in URL is none of them).',
});
export type LoginMethodList = Static<typeof LoginMethodList>;
