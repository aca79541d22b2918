import type { OrgCreate, OrgDeletion, OrgMe, OrgResponse, OrgRole, OrgUpdate } from '@bosun/protocol';
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ApiRoutes } from '../../http/api-routes.ts';
import { type PageRequest, pageOfList, pageQuery } from '../../http/pages.ts';
import { forbidden, notFound, shape } from '../../http/replies.ts';
import { routeOptions } from '../../http/route-options.ts';
import { principalOf } from '../../identity/authenticate.ts';
import type { IdentityRouteDeps } from '../../identity/routes/deps.ts';
import type { OrgDeletionRecord, Organization } from '../../identity/stores.ts';
import {
  ONLY_OWNERS_DELETE,
  permissionNames,
  permissionsOf,
  refusalToDelete,
  refusalToRename,
} from '../permissions.ts';

const route = routeOptions('Organizations');

export const OrgParams = Type.Object(
  { org_id: Type.String({ format: 'uuid', description: 'The organization’s id.' }) },
  { additionalProperties: false },
);
export const PageQuery = Type.Object(pageQuery, { additionalProperties: false });

export const orgToWire = (org: Organization, role: OrgRole): OrgResponse => ({
  id: org.id,
  name: org.name,
  role,
  created_at: org.created_at,
});

/**
 * The caller's role in the organization of the path, or a 404 sent: an organization the caller is not in does
 * not exist for them (its name is not confirmed to outsiders).
 */
export async function roleInPathOrg(
  deps: IdentityRouteDeps,
  request: FastifyRequest<{ Params: { org_id: string } }>,
  reply: FastifyReply,
): Promise<OrgRole | undefined> {
  const role = await deps.organizations.role(request.params.org_id.toLowerCase(), principalOf(request).userId);
  if (!role) notFound(reply, 'Organization');
  return role;
}

/** A handler for members of the path's organization, given their role in it and its id; others get the 404. */
export function asMember<R extends { Params: { org_id: string } }>(
  deps: IdentityRouteDeps,
  handler: (request: FastifyRequest<R>, reply: FastifyReply, member: { role: OrgRole; orgId: string }) => unknown,
) {
  return async (request: FastifyRequest<R>, reply: FastifyReply) => {
    const role = await roleInPathOrg(deps, request, reply);
    const orgId = (request.params as { org_id: string }).org_id.toLowerCase();
    return role ? handler(request, reply, { role, orgId }) : reply;
  };
}

const deletionToWire = ({ organization, removed, kept }: OrgDeletionRecord): OrgDeletion => ({
  message: 'Organization deleted, with its memberships, bound API keys and marketplaces; conversations stay',
  id: organization.id,
  name: organization.name,
  removed,
  kept,
});

/**
 * Organizations: create one (the creator is its owner), list the caller's, get one, the caller's membership of
 * one; rename one (owners and admins), delete one (owners). Outsiders get the 404 of an unknown organization.
 */
export function organizationRoutes(deps: IdentityRouteDeps): ApiRoutes {
  return (app) => {
    const { organizations, users } = deps;

    app.post<{ Body: OrgCreate }>(
      '/organizations',
      route('Create an organization; the caller is its owner', {
        body: shape('OrgCreate'),
        response: { 201: 'OrgResponse' },
      }),
      async (request, reply) => {
        const org = await organizations.create({
          name: request.body.name.trim(),
          ownerUserId: principalOf(request).userId,
        });
        return reply.code(201).send(orgToWire(org, 'owner'));
      },
    );

    app.get<{ Querystring: PageRequest }>(
      '/organizations',
      route('The caller’s organizations, with the caller’s role in each', {
        querystring: PageQuery,
        response: { 200: 'OrgPage' },
      }),
      async (request, reply) => {
        const principal = principalOf(request);
        const mine = await organizations.listForUser(principal.userId);
        const page = pageOfList(mine, (org) => orgToWire(org, org.role), request.query);
        return { ...page, current_org_id: principal.org?.id ?? null };
      },
    );

    app.get<{ Params: { org_id: string } }>(
      '/organizations/:org_id',
      route('An organization of the caller', { params: OrgParams, response: { 200: 'OrgResponse' } }),
      asMember(deps, async (_request, reply, { role, orgId }) => {
        const org = await organizations.get(orgId);
        return org ? orgToWire(org, role) : notFound(reply, 'Organization');
      }),
    );

    app.patch<{ Params: { org_id: string }; Body: OrgUpdate }>(
      '/organizations/:org_id',
      route('Rename an organization (owners and admins)', {
        params: OrgParams,
        body: shape('OrgUpdate'),
        response: { 200: 'OrgResponse', 403: 'HTTPError' },
      }),
      asMember(deps, async (request, reply, { role, orgId }) => {
        const refusal = refusalToRename(role);
        if (refusal) return forbidden(reply, refusal);
        const org = await organizations.rename(orgId, request.body.name.trim());
        return org ? orgToWire(org, role) : notFound(reply, 'Organization');
      }),
    );

    app.delete<{ Params: { org_id: string } }>(
      '/organizations/:org_id',
      route('Delete an organization (owners): its memberships, bound API keys and marketplaces go with it', {
        description:
          'In one transaction: every membership, the API keys bound to it and its marketplaces are deleted; the ' +
          'conversations started in it stay their users’ (in no organization), as do secrets, settings, LLM ' +
          'profiles, personal marketplaces and unbound keys. The answer counts both.',
        params: OrgParams,
        response: { 200: 'OrgDeletion', 403: 'HTTPError' },
      }),
      asMember(deps, async (request, reply, { role, orgId }) => {
        const refusal = refusalToDelete(role);
        if (refusal) return forbidden(reply, refusal);
        const outcome = await organizations.delete(orgId, principalOf(request).userId);
        if ('deleted' in outcome) return deletionToWire(outcome.deleted);
        // Demoted or removed since the role above was read.
        return outcome.refused ? forbidden(reply, ONLY_OWNERS_DELETE) : notFound(reply, 'Organization');
      }),
    );

    app.get<{ Params: { org_id: string } }>(
      '/organizations/:org_id/me',
      route('The caller’s membership of an organization and what its role lets them do', {
        params: OrgParams,
        response: { 200: 'OrgMe' },
      }),
      asMember(deps, async (request, _reply, { role, orgId }): Promise<OrgMe> => {
        const { userId } = principalOf(request);
        const permissions = permissionsOf(role, await organizations.owners(orgId));
        const user = await users.get(userId);
        return {
          org_id: orgId,
          user_id: userId,
          email: user?.email ?? null,
          role,
          status: 'active',
          permissions: permissionNames(permissions),
          ...permissions,
        };
      }),
    );
  };
}
