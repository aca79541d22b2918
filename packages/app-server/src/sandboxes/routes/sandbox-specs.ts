import { Type } from '@sinclair/typebox';
import type { ApiRoutes } from '../../http/api-routes.ts';
import { pageOfList, pageQuery } from '../../http/pages.ts';
import { shape } from '../../http/replies.ts';
import { routeOptions } from '../../http/route-options.ts';
import type { SandboxSpec } from '../index.ts';
import { type BatchQuery, BatchQuery as BatchQuerySchema, sandboxSpecInfo } from './sandbox-wire.ts';

const route = routeOptions('Sandbox specs');
const SearchQuery = Type.Object({ ...pageQuery }, { additionalProperties: false });

/** `/api/v1/sandbox-specs`: what sandboxes start from (the same for every user). */
export function sandboxSpecRoutes(specs: readonly SandboxSpec[]): ApiRoutes {
  return (app) => {
    app.get<{ Querystring: { page_id?: string; limit?: number } }>(
      '/sandbox-specs/search',
      route('The sandbox specs (the first is the default)', {
        querystring: SearchQuery,
        response: { 200: 'SandboxSpecPage' },
      }),
      async (request) => pageOfList([...specs], sandboxSpecInfo, request.query),
    );

    app.get<{ Querystring: BatchQuery }>(
      '/sandbox-specs',
      route('Sandbox specs by id (null for each unknown)', {
        querystring: BatchQuerySchema,
        response: { 200: Type.Array(Type.Union([shape('SandboxSpecInfo'), Type.Null()])) },
      }),
      async (request) =>
        request.query.id.map((id) => {
          const spec = specs.find((candidate) => candidate.id === id);
          return spec ? sandboxSpecInfo(spec) : null;
        }),
    );
  };
}
