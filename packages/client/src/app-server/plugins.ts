import type {
  DirectoryPlugin,
  DirectoryPluginConfig,
  DirectoryPluginList,
  EditResponse,
  PluginTrust,
  PluginTrustList,
  PluginTrustSource,
} from '@bosun/protocol';
import type { CallOptions, QueryValue } from '../http.ts';
import { AppServerConversationWorkspace } from './conversation-workspace.ts';

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
export abstract class AppServerPlugins extends AppServerConversationWorkspace {
  searchDirectoryPlugins(search: DirectorySearch = {}, options?: CallOptions): Promise<DirectoryPluginList> {
    const query = Object.fromEntries(Object.entries(search).filter(([, value]) => value !== undefined));
    return this.call('searchDirectoryPlugins', { ...options, query: query as Record<string, QueryValue> });
  }
  featuredDirectoryPlugins(options?: CallOptions): Promise<DirectoryPluginList> {
    return this.call('featuredDirectoryPlugins', options);
  }
  getDirectoryPlugin(id: string, options?: CallOptions): Promise<DirectoryPlugin> {
    return this.call('getDirectoryPlugin', { ...options, params: { plugin_id: id } });
  }
  /** How to launch a plugin: entry command, parameters (type, description, required, default), examples. */
  getDirectoryPluginConfig(id: string, options?: CallOptions): Promise<DirectoryPluginConfig> {
    return this.call('getDirectoryPluginConfig', { ...options, params: { plugin_id: id } });
  }
  /** Reads the instance plugin marketplace again now (the instance owner only: 403 otherwise). */
  refreshPluginDirectory(options?: CallOptions): Promise<DirectoryPluginList> {
    return this.call('refreshPluginDirectory', options);
  }
  listPluginTrust(options?: CallOptions): Promise<PluginTrustList> {
    return this.call('listPluginTrust', options);
  }
  /** Confirms trust in a plugin source at a commit (null: any commit); starts with its plugins are then allowed. */
  confirmPluginTrust(source: PluginTrustSource, options?: CallOptions): Promise<PluginTrust> {
    return this.call('confirmPluginTrust', { ...options, body: source });
  }
  revokePluginTrust(id: string, options?: CallOptions): Promise<EditResponse> {
    return this.call('revokePluginTrust', { ...options, params: { trust_id: id } });
  }
}
