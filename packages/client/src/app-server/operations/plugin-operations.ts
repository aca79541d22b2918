import type { Operation } from '../../agent-server/operations.ts';

const PLUGIN = '/api/v1/plugin-directory/plugins/{plugin_id}';

/** The routes of the Plugin Directory and of the caller's plugin trust confirmations. */
export const PLUGIN_OPERATIONS = {
  searchDirectoryPlugins: { method: 'GET', path: '/api/v1/plugin-directory/plugins', query: ['q', 'tag', 'featured'] },
  featuredDirectoryPlugins: { method: 'GET', path: '/api/v1/plugin-directory/featured' },
  getDirectoryPlugin: { method: 'GET', path: PLUGIN },
  getDirectoryPluginConfig: { method: 'GET', path: `${PLUGIN}/config` },
  refreshPluginDirectory: { method: 'POST', path: '/api/v1/plugin-directory/refresh' },
  listPluginTrust: { method: 'GET', path: '/api/v1/plugin-trust' },
  confirmPluginTrust: { method: 'POST', path: '/api/v1/plugin-trust', body: true },
  revokePluginTrust: { method: 'DELETE', path: '/api/v1/plugin-trust/{trust_id}' },
} as const satisfies Record<string, Operation>;
