import { type Static, Type } from '@sinclair/typebox';
import { namedEnum, nullable, ref, strictObject } from '../schema/builders.ts';
import { pageOf, timestamp } from './common.ts';

/** Organizations and their members. */

export const OrgRole = namedEnum('OrgRole', ['owner', 'admin', 'member'], {
  description: 'Owners and admins change members; only an owner makes or unmakes an owner.',
});
export type OrgRole = Static<typeof OrgRole>;

export const OrgCreate = strictObject(
  'OrgCreate',
  {
    name: Type.String({ minLength: 1, maxLength: 255, pattern: '\\S', description: 'Not blank.' }),
  },
  { description: 'A new organization; its creator is its owner.' },
);
export type OrgCreate = Static<typeof OrgCreate>;

export const OrgResponse = strictObject(
  'OrgResponse',
  {
    id: Type.String({ format: 'uuid' }),
    name: Type.String(),
    role: ref(OrgRole, { description: 'The caller’s role in it.' }),
    created_at: timestamp(),
  },
  { description: 'An organization.' },
);
export type OrgResponse = Static<typeof OrgResponse>;

export const OrgPage = pageOf('OrgPage', OrgResponse, 'A page of the caller’s organizations.', {
  current_org_id: nullable(Type.String({ description: 'The organization the request acted in.' })),
});
export type OrgPage = Static<typeof OrgPage>;

export const OrgMemberResponse = strictObject(
  'OrgMemberResponse',
  {
    user_id: Type.String(),
    email: nullable(Type.String()),
    display_name: nullable(Type.String()),
    role: ref(OrgRole),
    status: Type.String({ description: '`active`.' }),
    joined_at: timestamp(),
  },
  { description: 'A member of an organization.' },
);
export type OrgMemberResponse = Static<typeof OrgMemberResponse>;

export const OrgMemberPage = pageOf('OrgMemberPage', OrgMemberResponse, 'A page of members.');
export type OrgMemberPage = Static<typeof OrgMemberPage>;

export const OrgMemberAdd = strictObject(
  'OrgMemberAdd',
  {
    user_id: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
    email: Type.Optional(Type.String({ minLength: 3, maxLength: 255 })),
    role: Type.Optional(ref(OrgRole, { description: 'Default `member`.' })),
  },
  { description: 'Add an existing user, by id or email, to an organization.' },
);
export type OrgMemberAdd = Static<typeof OrgMemberAdd>;

export const OrgMemberUpdate = strictObject(
  'OrgMemberUpdate',
  { role: ref(OrgRole) },
  { description: 'Change a member’s role.' },
);
export type OrgMemberUpdate = Static<typeof OrgMemberUpdate>;
