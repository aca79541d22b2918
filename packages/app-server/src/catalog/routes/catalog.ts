import { Type } from '@sinclair/typebox';
import type { ApiRoutes } from '../../http/api-routes.ts';
import { type PageRequest, pageOfList, pageQuery } from '../../http/pages.ts';
import { routeOptions } from '../../http/route-options.ts';
import { settingsSchemaRoutes } from '../../settings/routes/settings-schemas.ts';
import { type ModelFilters, offeredModels, searchModels, searchProviders } from '../search.ts';
import type { ConversationSkillsDeps } from '../skills.ts';
import { skillsSearchRoutes } from './skills-search.ts';

const route = routeOptions('Config');

const filters = {
  ...pageQuery,
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, description: 'Items per page (default 50).' })),
  query: Type.Optional(Type.String({ maxLength: 200, description: 'Part of the name, in any case.' })),
  verified__eq: Type.Optional(Type.Boolean({ description: 'Only the verified (true) or the others (false).' })),
};
const ModelQuery = Type.Object(
  { ...filters, provider__eq: Type.Optional(Type.String({ maxLength: 100, description: 'The provider’s name.' })) },
  { additionalProperties: false },
);
const ProviderQuery = Type.Object(filters, { additionalProperties: false });

type Query = ModelFilters & PageRequest;
const page = ({ page_id, limit = 50 }: PageRequest) => ({ ...(page_id === undefined ? {} : { page_id }), limit });

/** `GET /config/models/search` and `/config/providers/search`: the curated catalog plus the instance's model. */
export function modelCatalogRoutes(defaultModel: string | undefined): ApiRoutes {
  return (app) => {
    const models = offeredModels(defaultModel);
    app.get<{ Querystring: Query }>(
      '/config/models/search',
      route('The LLM models a user can pick (the instance’s default included)', {
        querystring: ModelQuery,
        response: { 200: 'LLMModelPage' },
      }),
      async (request) => pageOfList(searchModels(models, request.query), (model) => model, page(request.query)),
    );
    app.get<{ Querystring: Query }>(
      '/config/providers/search',
      route('The LLM providers of those models', { querystring: ProviderQuery, response: { 200: 'ProviderPage' } }),
      async (request) => pageOfList(searchProviders(models, request.query), (item) => item, page(request.query)),
    );
  };
}

export interface CatalogDeps extends ConversationSkillsDeps {
  /** The instance's default model (`llm_model` of the configuration). */
  defaultModel: string | undefined;
}

/**
 * What a web client reads on its settings and home pages: the settings' JSON Schemas, models and providers, the
 * skills of a new conversation and the caller's Git account. Registered after the identity routes, which
 * authenticate them.
 */
export function catalogApi(deps: CatalogDeps): ApiRoutes {
  return (api, context) => {
    settingsSchemaRoutes(api, context);
    modelCatalogRoutes(deps.defaultModel)(api, context);
    skillsSearchRoutes(deps)(api, context);
  };
}
