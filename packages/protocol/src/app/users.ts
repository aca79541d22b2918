import { type Static, Type } from '@sinclair/typebox';
import { nullable, ref, strictObject } from '../schema/builders.ts';
import { timestamp } from './common.ts';
import { OrgRole } from './organizations.ts';

export const UserInfo = strictObject('UserInfo', 'The signed-in user.', {
  id: Type.String(),
  email: nullable(Type.String()),
  display_name: nullable(Type.String()),
  created_at: timestamp(),
  org_id: nullable(
    Type.String({ description: 'The organization the request acts in (`X-Org-Id` or the key’s), or null.' }),
  ),
  org_name: nullable(Type.String()),
  role: nullable(ref(OrgRole, { description: 'The user’s role in that organization.' })),
});
export type UserInfo = Static<typeof UserInfo>;
