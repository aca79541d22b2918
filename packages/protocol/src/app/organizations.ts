import { type Static, Type } from '@sinclair/typebox';
import { namedEnum, namedSchema, nullable, ref, strictObject } from '../schema/builders.ts';
import { pageOf, timestamp } from './common.ts';

/** Organizations and their members. */

export const OrgRole = namedEnum(
  'OrgRole',
  'Owners and admins change members; only an owner makes or unmakes an owner.',
  ['owner', 'admin', 'member'],
);
export type OrgRole = Static<typeof OrgRole>;

/** An organization's name, as created or renamed: 1 to 255 characters, not blank (kept without its outer spaces). */
const orgName = () => Type.String({ minLength: 1, maxLength: 255, pattern: '\\S', description: 'Not blank.' });

export const OrgCreate = strictObject('OrgCreate', 'A new organization; its creator is its owner.', {
  name: orgName(),
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

export const OrgUpdate = strictObject(
  'OrgUpdate',
  'A change of an organization (owners and admins): its name, by the rules of a new one. OpenHands’ SaaS fields ' +
    '(contact, billing margin, budgets, runtime images and keys, LLM API keys) have no place here: an unknown field ' +
    'is a 422.',
  { name: orgName() },
);
export type OrgUpdate = Static<typeof OrgUpdate>;

export const OrgDeletion = strictObject(
  'OrgDeletion',
  'What deleting an organization took with it, in one transaction, and what it left to its members.',
  {
    message: Type.String({ description: 'What was done, for a human.' }),
    id: Type.String({ format: 'uuid' }),
    name: Type.String(),
    removed: Type.Object(
      {
        memberships: Type.Integer({ minimum: 0, description: 'Every member’s membership, the owners’ too.' }),
        api_keys: Type.Integer({ minimum: 0, description: 'API keys bound to it (its members’ other keys stay).' }),
        marketplaces: Type.Integer({ minimum: 0, description: 'Its registered marketplaces (and their version).' }),
      },
      { additionalProperties: false, description: 'Rows deleted with it.' },
    ),
    kept: Type.Object(
      {
        conversations: Type.Integer({
          minimum: 0,
          description: 'Conversations started in it: they stay their users’, now in no organization.',
        }),
      },
      {
        additionalProperties: false,
        description:
          'What stays: each user’s conversations, secrets, settings, LLM profiles, personal marketplaces and keys.',
      },
    ),
  },
);
export type OrgDeletion = Static<typeof OrgDeletion>;

export const OrgMe = strictObject(
  'OrgMe',
  'The caller’s membership of an organization and what its role lets them do, so a client shows the controls ' +
    'that will work. OpenHands’ LLM key and settings-diff fields (SaaS) are left out.',
  {
    org_id: Type.String({ format: 'uuid' }),
    user_id: Type.String(),
    email: nullable(Type.String()),
    role: ref(OrgRole),
    status: Type.String({ description: '`active`.' }),
    permissions: Type.Array(Type.String(), {
      description: 'The `can_*` fields that are true, without the prefix (`manage_members`, ...).',
    }),
    can_manage_members: Type.Boolean({ description: 'Add, remove and change the roles of admins and members.' }),
    can_manage_owners: Type.Boolean({ description: 'Make or unmake owners, remove an owner.' }),
    can_manage_marketplaces: Type.Boolean({ description: 'Register, change and remove its marketplaces.' }),
    can_rename: Type.Boolean({ description: '`PATCH` the organization.' }),
    can_delete: Type.Boolean({ description: '`DELETE` the organization.' }),
    can_leave: Type.Boolean({ description: 'False for its last owner (who must make another owner first).' }),
  },
);
export type OrgMe = Static<typeof OrgMe>;

export const OrgMemberCount = namedSchema<number>({
  $id: 'OrgMemberCount',
  type: 'integer',
  minimum: 0,
  description: 'How many members an organization has (with `email`: whose address contains it), as a bare number.',
});
export type OrgMemberCount = Static<typeof OrgMemberCount>;
