import { useVirtualizer } from '@tanstack/react-virtual';
import { type ReactNode, useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { ErrorNotice, Loading } from '../../../ui/feedback.tsx';
import type { ActionPhase } from '../events/action.tsx';
import { ExpandedProvider } from './expanded.tsx';
import type { TimelineItem } from './model.ts';
import { TimelineRow } from './row.tsx';

/**
 * The timeline (`children`) once the conversation's events are loading no more; until then the loading state, and
 * instead of it the error that kept every event from coming, with a retry.
 */
export function TimelineOnceLoaded({
  loading,
  error,
  hasEvents,
  onRetry,
  children,
}: {
  loading: boolean;
  error: unknown;
  hasEvents: boolean;
  onRetry: () => void;
  children: ReactNode;
}) {
  if (loading) {
    return (
      <div className="conv-loading">
        <Loading what="the conversation" />
      </div>
    );
  }
  if (error !== undefined && !hasEvents) {
    return (
      <div className="conv-loading">
        <ErrorNotice error={error} onRetry={onRetry} />
      </div>
    );
  }
  return <>{children}</>;
}

/** How close to the bottom counts as "at the bottom" (new rows then keep it there). */
const STICK_PX = 80;

/**
 * The conversation's rows, virtualized (only the rows in view and a few around are in the page, so thousands of
 * events scroll smoothly), kept at the bottom while a person is there; `after` (what is being written, messages
 * waiting) follows the rows.
 */
export function Timeline({
  items,
  pendingPhase,
  before,
  after,
  empty,
}: {
  items: TimelineItem[];
  pendingPhase: ActionPhase;
  before?: ReactNode;
  after?: ReactNode;
  empty?: ReactNode;
}) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const contentRef = useRef<HTMLDivElement>(null);
  const stick = useRef(true);
  const [atBottom, setAtBottom] = useState(true);
  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => 96,
    overscan: 8,
    getItemKey: (index) => items[index]?.key ?? index,
  });

  const toBottom = useCallback(() => {
    const element = scrollRef.current;
    if (element) element.scrollTop = element.scrollHeight;
  }, []);

  // Only a person's scrolling (wheel, touch, keys, the scroll bar) leaves the bottom: rows being measured and the
  // list adjusting to them move the scroll position too, and must not.
  const lastInput = useRef(0);
  const onInput = () => {
    lastInput.current = Date.now();
  };
  const onScroll = () => {
    const element = scrollRef.current;
    if (!element) return;
    const bottom = element.scrollHeight - element.scrollTop - element.clientHeight < STICK_PX;
    if (!bottom && stick.current && Date.now() - lastInput.current > 400) {
      toBottom();
      return;
    }
    stick.current = bottom;
    setAtBottom(bottom);
  };

  // Older rows prepended while a person reads: keep what they read where it was.
  const firstKey = items[0]?.key;
  const previous = useRef<{ firstKey: string | undefined; total: number }>({ firstKey, total: 0 });
  useLayoutEffect(() => {
    const total = virtualizer.getTotalSize();
    const element = scrollRef.current;
    if (
      element &&
      previous.current.firstKey !== undefined &&
      firstKey !== previous.current.firstKey &&
      !stick.current
    ) {
      element.scrollTop += total - previous.current.total;
    }
    previous.current = { firstKey, total };
  });

  // Content that grows (rows measured, text streamed) keeps a person at the bottom who was there.
  useEffect(() => {
    const content = contentRef.current;
    if (!content) return;
    const observer = new ResizeObserver(() => {
      if (stick.current) toBottom();
    });
    observer.observe(content);
    return () => observer.disconnect();
  }, [toBottom]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: each new row keeps a person at the bottom who was there
  useLayoutEffect(() => {
    if (stick.current) toBottom();
  }, [items.length, toBottom]);

  const rows = virtualizer.getVirtualItems();
  return (
    <div className="timeline-wrap">
      <div
        className="timeline-scroll"
        ref={scrollRef}
        onScroll={onScroll}
        onWheel={onInput}
        onTouchMove={onInput}
        onKeyDown={onInput}
        onPointerDown={onInput}
        onFocusCapture={onInput}
      >
        <div ref={contentRef} className="timeline-content">
          {before}
          <ExpandedProvider>
            <div
              role="log"
              aria-label="Conversation"
              aria-live="off"
              className="timeline"
              style={{ height: virtualizer.getTotalSize() }}
            >
              {rows.map((row) => {
                const item = items[row.index];
                if (!item) return null;
                return (
                  <div
                    key={row.key}
                    data-index={row.index}
                    ref={virtualizer.measureElement}
                    className="timeline-row"
                    style={{ transform: `translateY(${row.start}px)` }}
                  >
                    <TimelineRow item={item} pendingPhase={pendingPhase} />
                  </div>
                );
              })}
            </div>
          </ExpandedProvider>
          {items.length === 0 && empty}
          {after}
        </div>
      </div>
      {!atBottom && (
        <button
          type="button"
          className="btn btn-small jump-latest"
          onClick={() => {
            stick.current = true;
            setAtBottom(true);
            toBottom();
          }}
        >
          ↓ Latest
        </button>
      )}
    </div>
  );
}
