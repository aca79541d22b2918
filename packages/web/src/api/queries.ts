import { useQuery } from '@tanstack/react-query';
import { useApi, useApiContext } from './client.tsx';

/** Query keys: one place, so invalidations name what they mean. */
export const keys = {
  config: ['web-client-config'] as const,
  me: (orgId: string | null) => ['me', orgId] as const,
  loginMethods: ['login-methods'] as const,
  organizations: ['organizations'] as const,
  settings: ['settings'] as const,
  conversations: ['conversations'] as const,
  conversation: (id: string) => ['conversation', id] as const,
  startTask: (id: string) => ['start-task', id] as const,
  secrets: ['secrets'] as const,
  apiKeys: ['api-keys'] as const,
  gitInfo: ['git-info'] as const,
  profiles: ['llm-profiles'] as const,
};

export function useWebClientConfig() {
  const api = useApi();
  return useQuery({ queryKey: keys.config, queryFn: () => api.get('/api/v1/web-client/config'), staleTime: 60_000 });
}

/** The signed-in person; a 401 means signed out (not retried). */
export function useMe() {
  const { api, orgId } = useApiContext();
  return useQuery({
    queryKey: keys.me(orgId),
    queryFn: () => api.get('/api/v1/users/me'),
    staleTime: 30_000,
    retry: false,
  });
}

export function useOrganizations(enabled = true) {
  const api = useApi();
  return useQuery({
    queryKey: keys.organizations,
    queryFn: () => api.get('/api/v1/organizations', { query: { limit: 100 } }),
    enabled,
  });
}

export function useSettings() {
  const api = useApi();
  return useQuery({ queryKey: keys.settings, queryFn: () => api.get('/api/v1/settings') });
}
