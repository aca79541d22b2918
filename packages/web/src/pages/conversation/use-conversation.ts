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
    queryFn: async () => (await api.get('/api/v1/app-conversations', { query: { ids: [id] } }))[0] ?? null,
    enabled,
    refetchInterval: (query) => (query.state.data?.sandbox_status === 'STARTING' ? 2000 : false),
  });
}

/**
 * The conversation's agent server, while its sandbox runs: always through the app's own proxy on this page's origin
 * (`/sandboxes/{id}/agent`), with the sandbox's session key. Not `conversation_url`, which may be the sandbox's own
 * loopback address (`sandbox_urls: auto` on a local install): another origin, which the page may not call.
 */
export function useAgentServer(conversation: AppConversation | null | undefined): AgentServerClient | undefined {
  const running = Boolean(conversation?.conversation_url);
  const sandboxId = conversation?.sandbox_id;
  const key = conversation?.session_api_key;
  return useMemo(() => {
    if (!running || !sandboxId || !key) return undefined;
    const baseUrl = `${window.location.origin}/sandboxes/${encodeURIComponent(sandboxId)}/agent`;
    return new AgentServerClient({ baseUrl, sessionApiKey: key });
  }, [running, sandboxId, key]);
}
