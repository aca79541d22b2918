import { type Static, Type } from '@sinclair/typebox';
import { namedEnum, nullable, ref, strictObject } from '../schema/builders.ts';
import { pageOf, timestamp } from './common.ts';

/** Organizations and their members. */

export const OrgRole = namedEnum(
  'OrgRole',
  'Owners and admins change members; only an owner makes or unmakes an owner.',
  ['owner', 'admin', 'member'],
);
export type OrgRole = Static<typeof OrgRole>;

export const OrgCreate = strictObject('OrgCreate', 'A new organization; its creator is its owner.', {
  name: Type.String({ minLength: 1, maxLength: 255, pattern: '\\S', description: 'Not blank.' }),
});
export type OrgCreate = Static<typeof OrgCreate>;

export const OrgResponse = strictObject('OrgResponse', 'An organization.', {
  id: Type.String({ format: 'uuid' }),
  name: Type.String(),
  role: ref(OrgRole, { description: 'The caller’s role in it.' }),
  created_at: timestamp(),
});
export type OrgResponse = Static<typeof OrgResponse>;

export const OrgPage = pageOf('OrgPage', 'A page of the caller’s organizations.', OrgResponse, {
  current_org_id: nullable(Type.String({ description: 'The organization the request acted in.' })),
});
export type OrgPage = Static<typeof OrgPage>;

export const OrgMemberResponse = strictObject('OrgMemberResponse', 'A member of an organization.', {
  user_id: Type.String(),
  email: nullable(Type.String()),
  display_name: nullable(Type.String()),
  role: ref(OrgRole),
  status: Type.String({ description: '`active`.' }),
  joined_at: timestamp(),
});
export type OrgMemberResponse = Static<typeof OrgMemberResponse>;

export const OrgMemberPage = pageOf('OrgMemberPage', 'A page of members.', OrgMemberResponse);
export type OrgMemberPage = Static<typeof OrgMemberPage>;

export const OrgMemberAdd = strictObject('OrgMemberAdd', 'Add an existing user, by id or email, to an organization.', {
  user_id: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
  email: Type.Optional(Type.String({ minLength: 3, maxLength: 255 })),
  role: Type.Optional(ref(OrgRole, { description: 'Default `member`.' })),
});
export type OrgMemberAdd = Static<typeof OrgMemberAdd>;

export const OrgMemberUpdate = strictObject('OrgMemberUpdate', 'Change a member’s role.', { role: ref(OrgRole) });
export type OrgMemberUpdate = Static<typeof OrgMemberUpdate>;
