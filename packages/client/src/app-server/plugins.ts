import type {
  DirectoryPlugin,
  DirectoryPluginConfig,
  DirectoryPluginList,
  EditResponse,
  PluginTrust,
  PluginTrustList,
  PluginTrustSource,
} from '@bosun/protocol';
import { type CallOptions, type QueryValue, pathOf } from '../http.ts';
import { AppServerConversations } from './conversations.ts';
import { PLUGIN_OPERATIONS } from './plugin-operations.ts';

type Call = CallOptions & { params?: Record<string, string>; query?: Record<string, QueryValue>; body?: unknown };

/** A search of the Plugin Directory. */
export interface DirectorySearch {
  q?: string;
  tag?: string;
  featured?: boolean;
}

/**
 * The Plugin Directory (the instance plugin marketplace's plugins, their launch configuration and links) and the
 * caller's trust confirmations of plugin sources. `AppServerClient` has them all.
 */
export abstract class AppServerPlugins extends AppServerConversations {
  private pluginCall<T>(name: keyof typeof PLUGIN_OPERATIONS, { params, ...call }: Call = {}) {
    const { method, path } = PLUGIN_OPERATIONS[name];
    return this.http.json<T>({ ...call, method, path: pathOf(path, params) });
  }

  searchDirectoryPlugins(search: DirectorySearch = {}, options?: CallOptions): Promise<DirectoryPluginList> {
    const query = Object.fromEntries(Object.entries(search).filter(([, value]) => value !== undefined));
    return this.pluginCall('searchDirectoryPlugins', { ...options, query: query as Record<string, QueryValue> });
  }
  featuredDirectoryPlugins(options?: CallOptions): Promise<DirectoryPluginList> {
    return this.pluginCall('featuredDirectoryPlugins', options);
  }
  getDirectoryPlugin(id: string, options?: CallOptions): Promise<DirectoryPlugin> {
    return this.pluginCall('getDirectoryPlugin', { ...options, params: { plugin_id: id } });
  }
  /** How to launch a plugin: entry command, parameters (type, description, required, default), examples. */
  getDirectoryPluginConfig(id: string, options?: CallOptions): Promise<DirectoryPluginConfig> {
    return this.pluginCall('getDirectoryPluginConfig', { ...options, params: { plugin_id: id } });
  }
  /** Reads the instance plugin marketplace again now (the instance owner only: 403 otherwise). */
  refreshPluginDirectory(options?: CallOptions): Promise<DirectoryPluginList> {
    return this.pluginCall('refreshPluginDirectory', options);
  }
  listPluginTrust(options?: CallOptions): Promise<PluginTrustList> {
    return this.pluginCall('listPluginTrust', options);
  }
  /** Confirms trust in a plugin source at a commit (null: any commit); starts with its plugins are then allowed. */
  confirmPluginTrust(source: PluginTrustSource, options?: CallOptions): Promise<PluginTrust> {
    return this.pluginCall('confirmPluginTrust', { ...options, body: source });
  }
  revokePluginTrust(id: string, options?: CallOptions): Promise<EditResponse> {
    return this.pluginCall('revokePluginTrust', { ...options, params: { trust_id: id } });
  }
}
