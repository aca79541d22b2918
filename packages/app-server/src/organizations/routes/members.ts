import { HttpError, NotFoundError } from '@bosun/http';
import type { OrgMemberAdd, OrgMemberResponse, OrgMemberUpdate, OrgRole } from '@bosun/protocol';
import { Type } from '@sinclair/typebox';
import type { ApiRoutes } from '../../http/api-routes.ts';
import { type PageRequest, pageOfList } from '../../http/pages.ts';
import { conflictsAs409, forbidden, invalid, notFound, shape } from '../../http/replies.ts';
import { routeOptions } from '../../http/route-options.ts';
import { principalOf } from '../../identity/authenticate.ts';
import type { Principal } from '../../identity/principal.ts';
import type { IdentityRouteDeps } from '../../identity/routes/deps.ts';
import type { Member } from '../../identity/stores.ts';
import { refusalToAdd, refusalToChangeRole, refusalToRemove } from '../member-rules.ts';
import { OrgParams, PageQuery, asMember } from './organizations.ts';

const route = routeOptions('Organizations');

const MemberParams = Type.Object(
  { org_id: OrgParams.properties.org_id, user_id: Type.String({ minLength: 1, maxLength: 64 }) },
  { additionalProperties: false },
);
const CountQuery = Type.Object(
  { email: Type.Optional(Type.String({ maxLength: 255, description: 'Part of the members’ email addresses.' })) },
  { additionalProperties: false },
);
type OrgPath = { org_id: string };
type MemberPath = OrgPath & { user_id: string };

const memberToWire = (member: Member): OrgMemberResponse => ({
  user_id: member.user_id,
  email: member.email,
  display_name: member.name,
  role: member.role,
  status: 'active',
  joined_at: member.joined_at,
});

const changeResponses = { 403: 'HTTPError', 409: 'HTTPError' };

/**
 * Members of an organization. Any member lists them; owners and admins add, change and remove them; only an
 * owner makes or unmakes an owner; the last owner can neither leave nor be demoted (409).
 */
export function memberRoutes(deps: IdentityRouteDeps): ApiRoutes {
  return (app) => {
    const { organizations, users } = deps;

    app.get<{ Params: OrgPath; Querystring: PageRequest }>(
      '/organizations/:org_id/members',
      route('The members of an organization', {
        params: OrgParams,
        querystring: PageQuery,
        response: { 200: 'OrgMemberPage' },
      }),
      asMember(deps, async (request, _reply, { orgId }) =>
        pageOfList(await organizations.members(orgId), memberToWire, request.query),
      ),
    );

    app.get<{ Params: OrgPath; Querystring: { email?: string } }>(
      '/organizations/:org_id/members/count',
      route('How many members an organization has (with `email`: whose address contains it, any case)', {
        params: OrgParams,
        querystring: CountQuery,
        response: { 200: 'OrgMemberCount' },
      }),
      asMember(deps, async (request, _reply, { orgId }) => organizations.countMembers(orgId, request.query.email)),
    );

    app.post<{ Params: OrgPath; Body: OrgMemberAdd }>(
      '/organizations/:org_id/members',
      route('Add an existing user (by id or email) to an organization', {
        params: OrgParams,
        body: shape('OrgMemberAdd'),
        response: { 201: 'OrgMemberResponse', ...changeResponses },
      }),
      asMember(deps, async (request, reply, { role: actor, orgId }) => {
        const { user_id, email, role = 'member' } = request.body;
        if ((user_id === undefined) === (email === undefined)) {
          return invalid(reply, ['body'], 'Give exactly one of user_id and email', 'missing');
        }
        const refusal = refusalToAdd(actor, role);
        if (refusal) return forbidden(reply, refusal);
        const user = user_id !== undefined ? await users.get(user_id) : await users.byEmail(email as string);
        if (!user) return notFound(reply, 'User');
        if (!(await conflictsAs409(() => organizations.addMember(orgId, user.id, role)))) {
          return notFound(reply, 'Organization');
        }
        return reply
          .code(201)
          .send(memberToWire({ ...user, user_id: user.id, role, joined_at: new Date().toISOString() }));
      }),
    );

    app.patch<{ Params: MemberPath; Body: OrgMemberUpdate }>(
      '/organizations/:org_id/members/:user_id',
      route('Change a member’s role', {
        params: MemberParams,
        body: shape('OrgMemberUpdate'),
        response: { 200: 'OrgMemberResponse', ...changeResponses },
      }),
      asMember(deps, async (request, reply, { role: actor, orgId }) => {
        const target = await memberOf(orgId, request.params.user_id);
        const refusal = refusalToChangeRole(actor, target.role, request.body.role);
        if (refusal) return forbidden(reply, refusal);
        const changed = await conflictsAs409(() => organizations.setRole(orgId, target.user_id, request.body.role));
        if (!changed) throw new NotFoundError('Member not found');
        return memberToWire({ ...target, role: request.body.role });
      }),
    );

    app.delete<{ Params: MemberPath }>(
      '/organizations/:org_id/members/:user_id',
      route('Remove a member (or leave, with one’s own user id)', {
        params: MemberParams,
        response: { 200: 'EditResponse', ...changeResponses },
      }),
      asMember(deps, (request, _reply, { role, orgId }) =>
        removeMember(orgId, request.params.user_id, role, principalOf(request)),
      ),
    );

    app.post<{ Params: OrgPath }>(
      '/organizations/:org_id/leave',
      route('Leave an organization (not as its last owner)', {
        params: OrgParams,
        response: { 200: 'EditResponse', ...changeResponses },
      }),
      asMember(deps, (request, _reply, { role, orgId }) => {
        const caller = principalOf(request);
        return removeMember(orgId, caller.userId, role, caller);
      }),
    );

    async function removeMember(orgId: string, userId: string, actor: OrgRole, caller: Principal) {
      const target = await memberOf(orgId, userId);
      const self = target.user_id === caller.userId;
      const refusal = refusalToRemove(actor, target.role, self);
      if (refusal) throw new HttpError(403, refusal);
      const removed = await conflictsAs409(() => organizations.removeMember(orgId, userId));
      if (!removed) throw new NotFoundError('Member not found');
      return { message: self ? 'Left the organization' : 'Member removed' };
    }

    async function memberOf(orgId: string, userId: string): Promise<Member> {
      const member = (await organizations.members(orgId)).find((candidate) => candidate.user_id === userId);
      if (!member) throw new NotFoundError('Member not found');
      return member;
    }
  };
}
