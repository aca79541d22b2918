import { useInfiniteQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useApi } from '../../api/client.tsx';
import { keys } from '../../api/queries.ts';
import { Button } from '../../ui/button.tsx';
import { ErrorNotice, Loading } from '../../ui/feedback.tsx';
import { useDebounced } from '../../ui/use-debounced.ts';
import { ConversationRow } from './conversation-row.tsx';

const PAGE = 20;

/** The caller's conversations, newest first, searched by title; more load on scrolling (or with the button). */
export function ConversationList() {
  const api = useApi();
  const [search, setSearch] = useState('');
  const title = useDebounced(search.trim());
  const pages = useInfiniteQuery({
    queryKey: [...keys.conversations, 'search', title],
    queryFn: ({ pageParam }) =>
      api.get('/api/v1/app-conversations/search', {
        query: {
          limit: PAGE,
          ...(title ? { title__contains: title } : {}),
          ...(pageParam ? { page_id: pageParam } : {}),
        },
      }),
    initialPageParam: '' as string,
    getNextPageParam: (last) => last.next_page_id ?? undefined,
  });
  const items = pages.data?.pages.flatMap((page) => page.items) ?? [];
  const end = useRef<HTMLDivElement>(null);
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = pages;
  useEffect(() => {
    const sentinel = end.current;
    if (!sentinel || !hasNextPage || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting) && !isFetchingNextPage) fetchNextPage();
    });
    observer.observe(sentinel);
    return () => observer.disconnect();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);

  return (
    <section aria-labelledby="conversations-heading" className="conversations">
      <div className="row conversations-head">
        <h2 id="conversations-heading">Conversations</h2>
        <span className="spacer" />
        <input
          className="input conversations-search"
          type="search"
          aria-label="Search conversations by title"
          placeholder="Search by title"
          value={search}
          onChange={(event) => setSearch(event.target.value)}
        />
      </div>
      {pages.isPending ? (
        <Loading what="conversations" />
      ) : pages.isError && items.length === 0 ? (
        <ErrorNotice error={pages.error} onRetry={() => pages.refetch()} />
      ) : items.length === 0 ? (
        <div className="empty card">
          {title ? (
            <p>No conversation’s title contains “{title}”. Clear the search to see them all.</p>
          ) : (
            <>
              <p>
                <strong>No conversations yet.</strong>
              </p>
              <p className="muted">
                Describe a task in the box above and press Enter: the agent starts working on it in its own sandbox, and
                the conversation shows up here.
              </p>
            </>
          )}
        </div>
      ) : (
        <>
          <ul className="conversation-list">
            {items.map((conversation) => (
              <ConversationRow key={conversation.id} conversation={conversation} />
            ))}
          </ul>
          {pages.isError && <ErrorNotice error={pages.error} onRetry={() => fetchNextPage()} />}
          <div ref={end} className="row conversations-more">
            {hasNextPage && (
              <Button busy={isFetchingNextPage} onClick={() => fetchNextPage()}>
                Load more
              </Button>
            )}
          </div>
        </>
      )}
    </section>
  );
}
