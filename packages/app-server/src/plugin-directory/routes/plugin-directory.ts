import { join } from 'node:path';
import type { DirectoryPlugin, DirectoryPluginConfig, DirectoryPluginList } from '@bosun/protocol';
import { Type } from '@sinclair/typebox';
import type { AppServerConfig } from '../../config.ts';
import type { Repositories } from '../../data/index.ts';
import { gitUrlsOf } from '../../git/provider-urls.ts';
import type { ProviderTokenReader } from '../../git/token-renewal.ts';
import type { ApiRoutes } from '../../http/api-routes.ts';
import { forbidden, notFound } from '../../http/replies.ts';
import { routeOptions } from '../../http/route-options.ts';
import { principalOf } from '../../identity/authenticate.ts';
import { MarketplaceGit } from '../../marketplaces/git-access.ts';
import { type DirectorySearch, PluginDirectory } from '../directory.ts';

const route = routeOptions('Plugin Directory');
const list = { 200: 'DirectoryPluginList' };
const SearchQuery = Type.Object(
  {
    q: Type.Optional(Type.String({ maxLength: 200, description: 'Text in the name, description or tags.' })),
    tag: Type.Optional(Type.String({ maxLength: 100, description: 'A tag (case does not matter).' })),
    featured: Type.Optional(Type.Boolean({ description: 'Only the featured plugins.' })),
  },
  { additionalProperties: false },
);
const PluginParams = Type.Object({ plugin_id: Type.String({ minLength: 1, maxLength: 200 }) });

/**
 * The Plugin Directory behind `/plugins`: the instance plugin marketplace's plugins, searched, each with its
 * launch configuration and launch link. Everyone signed in reads the same; only the instance owner refreshes.
 */
export function pluginDirectoryApi(directory: PluginDirectory, repositories: Pick<Repositories, 'users'>): ApiRoutes {
  return (api) => {
    api.get<{ Querystring: DirectorySearch }>(
      '/plugin-directory/plugins',
      route('The directory’s plugins, or those matching a search', { querystring: SearchQuery, response: list }),
      async (request): Promise<DirectoryPluginList> => directory.list(request.query),
    );

    api.get(
      '/plugin-directory/featured',
      route('The featured plugins', { response: list }),
      async (): Promise<DirectoryPluginList> => directory.list({ featured: true }),
    );

    api.get<{ Params: { plugin_id: string } }>(
      '/plugin-directory/plugins/:plugin_id',
      route('A plugin of the directory', { params: PluginParams, response: { 200: 'DirectoryPlugin' } }),
      async (request, reply): Promise<DirectoryPlugin> =>
        (await directory.plugin(request.params.plugin_id))?.plugin ?? notFound(reply, 'Plugin'),
    );

    api.get<{ Params: { plugin_id: string } }>(
      '/plugin-directory/plugins/:plugin_id/config',
      route('How to launch a plugin: entry command, parameters and examples', {
        params: PluginParams,
        response: { 200: 'DirectoryPluginConfig' },
      }),
      async (request, reply): Promise<DirectoryPluginConfig> =>
        (await directory.plugin(request.params.plugin_id))?.config ?? notFound(reply, 'Plugin'),
    );

    api.post(
      '/plugin-directory/refresh',
      route('Read the instance plugin marketplace again now (the instance owner only)', {
        response: { 200: 'DirectoryPluginList', 403: 'HTTPError' },
      }),
      async (request, reply) => {
        const owner = await repositories.users.owner();
        if (owner?.id !== principalOf(request).userId) return forbidden(reply, 'Only the instance owner refreshes');
        return directory.refresh();
      },
    );
  };
}

/** No user's tokens: the directory is the instance's, the same for everyone, read from public repositories. */
const NO_TOKENS: ProviderTokenReader = { list: async () => [], token: async () => undefined };

/**
 * The directory of the server's configuration (`plugin_directory_*`), reaching Git as the Skills & Plugins table
 * does: through the host guard (configured providers only, `git_allow_private_hosts`).
 */
export function pluginDirectoryOf(config: AppServerConfig, baseUrl: () => string): PluginDirectory {
  const source = config.plugin_directory_source;
  // OpenHands' directory names its marketplace `github://owner/repo[@ref]`: read as `github:owner/repo`.
  const openHands = source ? /^github:\/\/([^/@]+\/[^/@]+)(?:@(.+))?$/.exec(source) : null;
  const git = new MarketplaceGit({
    providers: gitUrlsOf(config),
    allowPrivateHosts: config.git_allow_private_hosts,
    gitTokens: NO_TOKENS,
  });
  return new PluginDirectory({
    location: source
      ? {
          source: openHands ? `github:${openHands[1]}` : source,
          ref: config.plugin_directory_ref ?? openHands?.[2] ?? null,
          repo_path: config.plugin_directory_path ?? null,
        }
      : null,
    git: () => git.cache(join(config.data_dir, 'cache', 'git')),
    refreshMs: config.plugin_directory_refresh * 1000,
    featured: config.plugin_directory_featured,
    baseUrl,
  });
}
