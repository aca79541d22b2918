import type { PluginTrust, PluginTrustList, PluginTrustSource } from '@bosun/protocol';
import { Type } from '@sinclair/typebox';
import type { PluginTrustRecord, Repositories } from '../../data/index.ts';
import type { ApiRoutes } from '../../http/api-routes.ts';
import { notFound, shape } from '../../http/replies.ts';
import { routeOptions } from '../../http/route-options.ts';
import { principalOf } from '../../identity/authenticate.ts';

const route = routeOptions('Plugin trust');
const TrustParams = Type.Object({ trust_id: Type.String({ format: 'uuid' }) }, { additionalProperties: false });

/**
 * The caller's trust confirmations of plugin sources: what lets a start load their plugins (see the README).
 * Each user reads and revokes only their own.
 */
export function pluginTrustApi(repositories: Pick<Repositories, 'pluginTrust'>): ApiRoutes {
  const { pluginTrust } = repositories;
  return (api) => {
    api.get(
      '/plugin-trust',
      route('The plugin sources the caller confirmed trust in, newest first', { response: { 200: 'PluginTrustList' } }),
      async (request): Promise<PluginTrustList> => ({
        items: (await pluginTrust.list(principalOf(request).userId)).map(wireOf),
      }),
    );

    api.post<{ Body: PluginTrustSource }>(
      '/plugin-trust',
      route('Confirm trust in a plugin source at a commit (null: any commit)', {
        description: 'Confirming again answers the first confirmation.',
        body: shape('PluginTrustSource'),
        response: { 200: 'PluginTrust' },
      }),
      async (request): Promise<PluginTrust> => {
        const { source, commit } = request.body;
        return wireOf(await pluginTrust.confirm(principalOf(request).userId, source, commit));
      },
    );

    api.delete<{ Params: { trust_id: string } }>(
      '/plugin-trust/:trust_id',
      route('Revoke a trust confirmation: the next start with that source asks again', {
        params: TrustParams,
        response: { 200: 'EditResponse' },
      }),
      async (request, reply) => {
        const revoked = await pluginTrust.revoke(principalOf(request).userId, request.params.trust_id.toLowerCase());
        return revoked ? { message: 'Trust revoked' } : notFound(reply, 'Trust confirmation');
      },
    );
  };
}

const wireOf = (record: PluginTrustRecord): PluginTrust => ({
  id: record.id,
  source: record.source,
  commit: record.commit,
  confirmed_at: record.confirmed_at,
});
