/**
 * `/shared/conversations/:conversationId`: a conversation its owner made public, read-only, for anyone with the link
 * (no sign-in). The timeline is the conversation page's, with its renderers.
 */
import { AppServerClient, BosunApiError } from '@bosun/client';
import type { SharedConversation, StoredEvent } from '@bosun/protocol';
import { useQuery } from '@tanstack/react-query';
import { type ReactNode, startTransition, useEffect, useMemo, useState } from 'react';
import { useParams } from 'react-router';
import { BrandLink } from '../../ui/brand-link.tsx';
import { ErrorNotice, Loading, Notice, Spinner } from '../../ui/feedback.tsx';
import { relativeTime, timeProps } from '../../ui/time.ts';
import { READER_VOICE, UserVoice } from '../conversation/events/message.tsx';
import { RepositoryBranch } from '../conversation/repository-branch.tsx';
import { buildTimeline } from '../conversation/timeline/model.ts';
import { Timeline, TimelineOnceLoaded } from '../conversation/timeline/timeline.tsx';
import '../conversation/conversation.css';
import './shared.css';

const PAGE = 100;

export default function SharedConversationPage() {
  const { conversationId = '' } = useParams();
  // Its own client, acting in no organization and sending no credentials the page does not need.
  const api = useMemo(() => new AppServerClient({ baseUrl: window.location.origin }), []);
  const conversation = useQuery({
    queryKey: ['shared-conversation', conversationId],
    queryFn: async () => (await api.get('/api/shared-conversations', { query: { ids: [conversationId] } }))[0] ?? null,
    retry: (count, error) => !(error instanceof BosunApiError && error.status < 500) && count < 2,
  });
  useEffect(() => {
    const title = conversation.data?.title;
    document.title = title ? `${title} · shared conversation · Bosun` : 'Shared conversation · Bosun';
  }, [conversation.data]);

  if (conversation.isPending) {
    return (
      <Frame>
        <main className="page page-narrow">
          <Loading what="the shared conversation" />
        </main>
      </Frame>
    );
  }
  if (conversation.isError || conversation.data === null) {
    const missing =
      conversation.data === null ||
      (conversation.error instanceof BosunApiError && [404, 422].includes(conversation.error.status));
    return (
      <Frame>
        <main className="page page-narrow">
          <h1>{missing ? 'This conversation is not shared' : 'Shared conversation'}</h1>
          {missing ? (
            <Notice tone="warning">
              No conversation is shared at this address: the link may be mistyped, or its owner deleted the conversation
              or made it private again. Ask whoever sent you the link.
            </Notice>
          ) : (
            <ErrorNotice error={conversation.error} onRetry={() => conversation.refetch()} />
          )}
        </main>
      </Frame>
    );
  }
  return <SharedView api={api} conversation={conversation.data} />;
}

/** The page's frame: no account header (the reader may be signed out), the brand linking home. */
function Frame({ children }: { children: ReactNode }) {
  return (
    <div className="shared-frame">
      <header className="app-header shared-app-header">
        <BrandLink />
        <span className="spacer" />
        <span className="muted small">Read-only shared conversation</span>
      </header>
      {children}
    </div>
  );
}

/** Every event of the conversation, oldest first, a page at a time (the rows show as the pages arrive). */
function useSharedEvents(api: AppServerClient, id: string) {
  const [events, setEvents] = useState<StoredEvent[]>([]);
  const [loading, setLoading] = useState(true);
  const [more, setMore] = useState(false);
  const [error, setError] = useState<unknown>(undefined);
  const [attempt, setAttempt] = useState(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` loads again after a failure
  useEffect(() => {
    const controller = new AbortController();
    const { signal } = controller;
    setEvents([]);
    setLoading(true);
    setError(undefined);
    const load = async () => {
      try {
        let all: StoredEvent[] = [];
        let pageId: string | undefined;
        do {
          const page = await api.get('/api/shared-events/search', {
            query: {
              conversation_id: id,
              sort_order: 'TIMESTAMP',
              limit: PAGE,
              ...(pageId ? { page_id: pageId } : {}),
            },
            signal,
          });
          all = all.concat(page.items as StoredEvent[]);
          pageId = page.next_page_id ?? undefined;
          const snapshot = all;
          startTransition(() => setEvents(snapshot));
          setLoading(false);
          setMore(Boolean(pageId));
        } while (pageId && !signal.aborted);
      } catch (failure) {
        if (signal.aborted) return;
        setError(failure);
        setLoading(false);
        setMore(false);
      }
    };
    void load();
    return () => controller.abort();
  }, [api, id, attempt]);
  return { events, loading, more, error, retry: () => setAttempt((n) => n + 1) };
}

function SharedView({ api, conversation }: { api: AppServerClient; conversation: SharedConversation }) {
  const shared = useSharedEvents(api, conversation.id);
  const model = useMemo(() => buildTimeline(shared.events), [shared.events]);
  const title = conversation.title?.trim() || 'Untitled conversation';
  return (
    <Frame>
      <main className="conv-page shared-page">
        <header className="conv-header">
          <h1 className="conv-title shared-title">{title}</h1>
          <div className="conv-header-meta">
            <span className="badge">Read-only shared copy</span>
            <RepositoryBranch repository={conversation.selected_repository} branch={conversation.selected_branch} />
            {conversation.llm_model && <span className="muted small model-name">{conversation.llm_model}</span>}
            <span className="muted small">
              Last changed <time {...timeProps(conversation.updated_at)}>{relativeTime(conversation.updated_at)}</time>
            </span>
          </div>
          <p className="muted small shared-note">
            Its owner shared this conversation: you read a copy of what happened, secrets masked. Nothing here can be
            changed or continued.
          </p>
        </header>
        <section className="conv-main" aria-label="Conversation">
          <UserVoice.Provider value={READER_VOICE}>
            <TimelineOnceLoaded
              loading={shared.loading}
              error={shared.error}
              hasEvents={shared.events.length > 0}
              onRetry={shared.retry}
            >
              <Timeline
                items={model.items}
                pendingPhase="stopped"
                before={shared.error !== undefined ? <ErrorNotice error={shared.error} onRetry={shared.retry} /> : null}
                empty={<p className="muted empty-timeline">This conversation has no messages.</p>}
                after={
                  shared.more ? (
                    <p className="muted small older-loading">
                      <Spinner label="Loading more events" /> Loading more events…
                    </p>
                  ) : null
                }
              />
            </TimelineOnceLoaded>
          </UserVoice.Provider>
        </section>
      </main>
    </Frame>
  );
}
