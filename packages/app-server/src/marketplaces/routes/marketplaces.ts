import type {
  MarketplaceApproval,
  MarketplaceCreate,
  MarketplacePreviewRequest,
  MarketplaceRegistration,
  MarketplaceScope,
  MarketplaceUpdate,
} from '@bosun/protocol';
import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import type { ApiRoutes } from '../../http/api-routes.ts';
import { conflictsAs409, shape } from '../../http/replies.ts';
import { routeOptions } from '../../http/route-options.ts';
import { principalOf } from '../../identity/authenticate.ts';
import type { Marketplaces } from '../index.ts';
import { previewMarketplace } from '../preview.ts';
import type { Caller } from '../registry.ts';
import { MarketplaceSkillsAnswer, marketplaceSkills } from './marketplace-skills.ts';

const route = routeOptions('Marketplaces');
const writeResponses = { 403: 'HTTPError', 409: 'HTTPError' };

const OrgQuery = {
  org_id: Type.Optional(
    Type.String({ format: 'uuid', description: 'The organization (default: the one the request acts in).' }),
  ),
};
const EntryParams = Type.Object(
  {
    scope: Type.Union([Type.Literal('instance'), Type.Literal('organization'), Type.Literal('personal')]),
    name: Type.String({ minLength: 1, maxLength: 64 }),
  },
  { additionalProperties: false },
);
type EntryParams = { scope: MarketplaceScope; name: string };

/** Who asks about marketplaces: the user, in the organization the request acts in. */
export const callerOf = (request: FastifyRequest): Caller => {
  const principal = principalOf(request);
  return { userId: principal.userId, orgId: principal.org?.id ?? null };
};

/**
 * Registered marketplaces (composed: instance < organization < personal) and the preview of one before it is
 * registered (`POST /skills/marketplace-skills`, as OpenHands' web UI calls it).
 */
export function marketplaceApi({ registry, git, table }: Marketplaces): ApiRoutes {
  return (api) => {
    api.get<{ Querystring: { org_id?: string } }>(
      '/marketplaces',
      route('The marketplaces of the caller’s new conversations: instance, organization and own', {
        description:
          'By name, a later scope wins: instance < organization < personal; an entry hidden so says `overridden_by`.',
        querystring: Type.Object(OrgQuery, { additionalProperties: false }),
        response: { 200: 'MarketplaceList' },
      }),
      (request) => registry.list(callerOf(request), request.query.org_id),
    );

    api.post<{ Body: MarketplaceCreate }>(
      '/marketplaces',
      route('Register a marketplace (personal, or an organization’s for its owners and admins)', {
        body: shape('MarketplaceCreate'),
        response: { 201: 'Marketplace', ...writeResponses },
      }),
      async (request, reply) => {
        const created = await conflictsAs409(() => registry.create(callerOf(request), request.body));
        return reply.code(201).send(created);
      },
    );

    api.patch<{ Params: EntryParams; Querystring: { org_id?: string }; Body: MarketplaceUpdate }>(
      '/marketplaces/:scope/:name',
      route('Change a registration’s ref, path or Auto-Load (instance ones are read-only: 403)', {
        params: EntryParams,
        querystring: Type.Object(OrgQuery, { additionalProperties: false }),
        body: shape('MarketplaceUpdate'),
        response: { 200: 'Marketplace', ...writeResponses },
      }),
      (request) =>
        conflictsAs409(() =>
          registry.update(
            callerOf(request),
            request.params.scope,
            request.params.name,
            request.query.org_id,
            request.body,
          ),
        ),
    );

    api.delete<{ Params: EntryParams; Querystring: { org_id?: string; expected_version?: string } }>(
      '/marketplaces/:scope/:name',
      route('Remove a registration (running conversations keep what they loaded)', {
        params: EntryParams,
        querystring: Type.Object(
          { ...OrgQuery, expected_version: Type.Optional(Type.String({ maxLength: 64 })) },
          { additionalProperties: false },
        ),
        response: { 204: Type.Null(), ...writeResponses },
      }),
      async (request, reply) => {
        const { scope, name } = request.params;
        const { org_id: orgId, expected_version: expected } = request.query;
        await conflictsAs409(() => registry.delete(callerOf(request), scope, name, orgId, expected));
        return reply.code(204).send();
      },
    );

    api.post<{ Params: EntryParams; Querystring: { org_id?: string }; Body: MarketplaceApproval }>(
      '/marketplaces/:scope/:name/approve',
      route('Approve a commit of a marketplace whose updates are reviewed: new conversations load it', {
        description: 'The Skills & Plugins table shows what the pending commit (`pending_ref`) changes first.',
        params: EntryParams,
        querystring: Type.Object(OrgQuery, { additionalProperties: false }),
        body: shape('MarketplaceApproval'),
        response: { 200: 'Marketplace', ...writeResponses },
      }),
      (request) => {
        const { scope, name } = request.params;
        return conflictsAs409(() =>
          registry.approve(callerOf(request), scope, name, request.query.org_id, request.body),
        );
      },
    );

    api.get<{ Querystring: { org_id?: string } }>(
      '/skills-and-plugins',
      route('The Skills & Plugins table: every plugin of the composed marketplaces, read at their commits now', {
        description:
          'Each with its scope, source, commit, Auto-Load, the skills, commands, hooks and MCP servers it brings, ' +
          'the skills of it the caller turned off (`disabled_skills` of the settings) and its problems.',
        querystring: Type.Object(OrgQuery, { additionalProperties: false }),
        response: { 200: 'SkillsTable' },
      }),
      async (request) => {
        const caller = callerOf(request);
        return table(caller.userId, await registry.orgOf(caller, request.query.org_id));
      },
    );

    api.post<{ Body: MarketplacePreviewRequest | MarketplaceRegistration[] }>(
      '/skills/marketplace-skills',
      route('Read a marketplace at its ref, without registering it: its plugins, skills and problems', {
        description:
          'Only HTTP(S) repositories of the configured Git providers are fetched, never at an internal address ' +
          '(unless git_allow_private_hosts). A ref or path that does not exist is a 422; no marketplace, a 404. ' +
          'OpenHands’ body, an array of registrations, is answered in its shape (`marketplace-skills.ts`).',
        body: Type.Union([
          shape('MarketplacePreviewRequest'),
          Type.Array(shape('MarketplaceRegistration'), { maxItems: 20 }),
        ]),
        response: { 200: Type.Union([shape('MarketplacePreview'), MarketplaceSkillsAnswer]) },
      }),
      (request) => {
        const { body } = request;
        const userId = principalOf(request).userId;
        return Array.isArray(body) ? marketplaceSkills(git, userId, body) : previewMarketplace(git, userId, body);
      },
    );
  };
}
