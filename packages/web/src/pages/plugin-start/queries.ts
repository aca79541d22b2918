import type { AppServerApi, OperationAt } from '@bosun/client';
import { useQuery } from '@tanstack/react-query';
import { useApi } from '../../api/client.tsx';

/** A search of the Plugin Directory: `q`, `tag`, `featured`. */
type DirectorySearch = NonNullable<OperationAt<AppServerApi, '/api/v1/plugin-directory/plugins', 'get'>['query']>;

/** Query keys of the Plugin Directory and of the person's trust confirmations. */
export const pluginKeys = {
  directory: (search: DirectorySearch) => ['plugin-directory', 'search', search] as const,
  plugin: (id: string) => ['plugin-directory', 'plugin', id] as const,
  config: (id: string) => ['plugin-directory', 'config', id] as const,
  contents: (source: string, ref: string | null, path: string | null) =>
    ['plugin-directory', 'contents', source, ref, path] as const,
  trust: ['plugin-trust'] as const,
};

/** The directory's plugins matching a search (all of them without one). */
export function useDirectory(search: DirectorySearch = {}) {
  const api = useApi();
  return useQuery({
    queryKey: pluginKeys.directory(search),
    queryFn: () => api.get('/api/v1/plugin-directory/plugins', { query: search }),
    staleTime: 60_000,
    placeholderData: (previous) => previous,
  });
}

/** The person's trust confirmations (plugin sources at commits). */
export function usePluginTrust() {
  const api = useApi();
  return useQuery({ queryKey: pluginKeys.trust, queryFn: () => api.get('/api/v1/plugin-trust'), staleTime: 30_000 });
}
