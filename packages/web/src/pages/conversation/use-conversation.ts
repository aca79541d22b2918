import { AgentServerClient } from '@bosun/client';
import type { AppConversation } from '@bosun/protocol';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useApi } from '../../api/client.tsx';
import { keys } from '../../api/queries.ts';

/**
 * The app's conversation (null: none by that id). Its status changes come from its events (the page refreshes
 * this query on them); only a sandbox that is starting is read again until it runs, since no event says so.
 */
export function useConversation(id: string, enabled = true) {
  const api = useApi();
  return useQuery({
    queryKey: keys.conversation(id),
    queryFn: async () => (await api.getAppConversations([id]))[0] ?? null,
    enabled,
    refetchInterval: (query) => (query.state.data?.sandbox_status === 'STARTING' ? 2000 : false),
  });
}

/** The conversation's agent server (through the app's proxy, with its session key), while its sandbox runs. */
export function useAgentServer(conversation: AppConversation | null | undefined): AgentServerClient | undefined {
  const url = conversation?.conversation_url;
  const key = conversation?.session_api_key;
  return useMemo(() => {
    if (!url || !key) return undefined;
    const baseUrl = url.replace(/\/api\/conversations\/[^/]+\/?$/, '');
    return new AgentServerClient({ baseUrl, sessionApiKey: key });
  }, [url, key]);
}
