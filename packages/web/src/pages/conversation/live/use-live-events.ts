import { type FollowEventsOptions, followConversationEvents } from '@bosun/client';
import type { AppConversation, ConversationInfo, StoredEvent, StreamFrame } from '@bosun/protocol';
import { useQueryClient } from '@tanstack/react-query';
import { startTransition, useCallback, useEffect, useRef, useState } from 'react';
import { useApi } from '../../../api/client.tsx';
import { isSignedOut } from '../../../api/errors.ts';
import { keys } from '../../../api/queries.ts';
import { type LiveAnswers, applyStreamFrame, settleAnswers, streamOptions } from './stream.ts';

export type Connection = 'connecting' | 'live' | 'reconnecting' | 'offline';

export interface LiveEvents {
  /** Every event loaded, in log order, each once. */
  events: StoredEvent[];
  /** The newest page is being read (nothing to show yet). */
  loading: boolean;
  /** Older pages are still being read (shown above once there). */
  loadingOlder: boolean;
  /** Reading the history failed. */
  error: unknown;
  connection: Connection;
  /** Why the connection is not live, for a person. */
  connectionDetail: string | undefined;
  /** The conversation as the socket's last snapshot gave it (the agent server's, when it runs). */
  snapshot: Partial<ConversationInfo> | undefined;
  /** Answers being written by the model. */
  answers: LiveAnswers;
  /** Reads everything again and reconnects. */
  retry(): void;
}

const PAGE = 100;
/** State updates that change what the conversation's query answers (its status, its title). */
const CONVERSATION_KEYS = new Set(['execution_status', 'title', 'full_state', 'confirmation_policy']);

/**
 * A conversation's events: the newest page first (so a long conversation shows at once), then the socket from
 * the last one (`afterEventId`: resumed after the last event on a dropped connection, no gap, no duplicate; events
 * are deduplicated by id anyway), while older pages load above. Events arriving together are applied once per
 * frame. Status changes refresh the conversation's query: the page never polls for them.
 */
export function useLiveEvents(conversationId: string, enabled = true): LiveEvents {
  const api = useApi();
  const queryClient = useQueryClient();
  const [events, setEvents] = useState<StoredEvent[]>([]);
  const [loading, setLoading] = useState(true);
  const [loadingOlder, setLoadingOlder] = useState(false);
  const [error, setError] = useState<unknown>(undefined);
  const [connection, setConnection] = useState<Connection>('connecting');
  const [connectionDetail, setConnectionDetail] = useState<string | undefined>(undefined);
  const [snapshot, setSnapshot] = useState<Partial<ConversationInfo> | undefined>(undefined);
  const [answers, setAnswers] = useState<LiveAnswers>([]);
  const [attempt, setAttempt] = useState(0);
  const retry = useCallback(() => setAttempt((n) => n + 1), []);
  const invalidateTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` changes to read and connect again
  useEffect(() => {
    if (!enabled) return;
    const controller = new AbortController();
    const { signal } = controller;
    const seen = new Set<string>();
    let all: StoredEvent[] = [];
    let queued: StoredEvent[] = [];
    let frame = 0;
    setEvents([]);
    setLoading(true);
    setError(undefined);
    setConnection('connecting');
    setConnectionDetail(undefined);
    setAnswers([]);

    const refreshConversation = (status?: string) => {
      if (status) {
        queryClient.setQueryData<AppConversation | null>(keys.conversation(conversationId), (old) =>
          old ? { ...old, execution_status: status as AppConversation['execution_status'] } : old,
        );
      }
      clearTimeout(invalidateTimer.current);
      invalidateTimer.current = setTimeout(() => {
        queryClient.invalidateQueries({ queryKey: keys.conversation(conversationId) });
        queryClient.invalidateQueries({ queryKey: keys.conversations });
      }, 300);
    };

    const flush = () => {
      frame = 0;
      if (queued.length === 0) return;
      const fresh = queued;
      queued = [];
      all = all.concat(fresh);
      setEvents(all);
      let status: string | undefined;
      let touched = false;
      for (const event of fresh) {
        if (event.kind === 'ConversationStateUpdateEvent' && CONVERSATION_KEYS.has(event.key ?? '')) {
          touched = true;
          if (event.key === 'execution_status' && typeof event.value === 'string') status = event.value;
        }
        if ((event.kind === 'MessageEvent' || event.kind === 'ActionEvent') && event.source === 'agent') {
          const responseId = event.llm_response_id;
          setAnswers((current) => settleAnswers(current, responseId));
        }
      }
      if (touched) refreshConversation(status);
    };
    const append = (event: StoredEvent) => {
      if (!event.id || seen.has(event.id)) return;
      seen.add(event.id);
      queued.push(event);
      if (frame === 0) frame = requestAnimationFrame(flush);
    };
    const onFrame = (streamFrame: StreamFrame) => {
      if (streamFrame.conversation_id && streamFrame.conversation_id !== conversationId) return;
      setAnswers((current) => applyStreamFrame(current, streamFrame));
    };

    const follow = async (afterEventId: string | undefined) => {
      const options: FollowEventsOptions = {
        ...(afterEventId ? { afterEventId } : { fromStart: true }),
        signal,
        reconnect: { maxAttempts: Number.POSITIVE_INFINITY, maxDelayMs: 10_000 },
        onSnapshot(info) {
          setSnapshot(info);
          setConnection('live');
          setConnectionDetail(undefined);
          refreshConversation();
        },
        onReconnect({ attempt: n, delayMs, reason }) {
          setConnection('reconnecting');
          setConnectionDetail(`Connection lost (${reason}); attempt ${n} in ${Math.ceil(delayMs / 1000)} s.`);
          // Whatever was being written is void: its events come with the replay.
          setAnswers([]);
        },
        ...streamOptions(onFrame),
      };
      try {
        for await (const event of followConversationEvents(api, conversationId, options)) append(event);
      } catch (failure) {
        if (signal.aborted) return;
        setConnection('offline');
        setConnectionDetail(
          isSignedOut(failure)
            ? 'You are signed out. Sign in again to continue.'
            : `The live connection ended: ${(failure as Error).message}`,
        );
      }
    };

    const newestFirst = (pageId?: string) =>
      api.get('/api/v1/conversation/{conversation_id}/events/search', {
        params: { conversation_id: conversationId },
        query: { sort_order: 'TIMESTAMP_DESC', limit: PAGE, ...(pageId ? { page_id: pageId } : {}) },
        signal,
      });
    const load = async () => {
      try {
        const first = await newestFirst();
        const newest = (first.items as StoredEvent[]).slice().reverse();
        for (const event of newest) seen.add(event.id);
        all = newest;
        setEvents(all);
        setLoading(false);
        void follow(newest.at(-1)?.id);
        let pageId = first.next_page_id ?? undefined;
        if (pageId) setLoadingOlder(true);
        // Older pages are shown a few at a time, rendered without blocking what a person does meanwhile.
        let shown = Date.now();
        while (pageId && !signal.aborted) {
          const page = await newestFirst(pageId);
          const older = (page.items as StoredEvent[]).filter((event) => !seen.has(event.id)).reverse();
          for (const event of older) seen.add(event.id);
          all = older.concat(all);
          pageId = page.next_page_id ?? undefined;
          if (!pageId || Date.now() - shown > 400) {
            shown = Date.now();
            const snapshot = all;
            startTransition(() => setEvents(snapshot));
          }
        }
        setLoadingOlder(false);
      } catch (failure) {
        if (signal.aborted) return;
        setError(failure);
        setLoading(false);
        setLoadingOlder(false);
      }
    };
    void load();
    return () => {
      controller.abort();
      if (frame) cancelAnimationFrame(frame);
      clearTimeout(invalidateTimer.current);
    };
  }, [api, conversationId, enabled, queryClient, attempt]);

  return { events, loading, loadingOlder, error, connection, connectionDetail, snapshot, answers, retry };
}
