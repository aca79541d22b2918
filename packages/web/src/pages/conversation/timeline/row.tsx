import { memo } from 'react';
import { type ActionPhase, ActionRow } from '../events/action.tsx';
import { MessageRow } from '../events/message.tsx';
import { CondensationRow, ConversationErrorRow, OrphanRow, PauseRow, SystemPromptRow } from '../events/notices.tsx';
import type { TimelineItem } from './model.ts';

/** One row of the timeline, by its type. */
export const TimelineRow = memo(TimelineRowOf, (before, after) => {
  // A row's item is rebuilt with each event that arrives; it renders again only when its event or result changed.
  const a = before.item as { event: unknown; result?: unknown };
  const b = after.item as { event: unknown; result?: unknown };
  return a.event === b.event && a.result === b.result && before.pendingPhase === after.pendingPhase;
});

function TimelineRowOf({
  item,
  pendingPhase,
}: {
  item: TimelineItem;
  /** What an action without a result is doing (running, waiting for approval, stopped). */
  pendingPhase: ActionPhase;
}) {
  switch (item.type) {
    case 'message':
      return <MessageRow event={item.event} />;
    case 'action':
      return <ActionRow event={item.event} result={item.result} phase={item.result ? 'done' : pendingPhase} />;
    case 'orphan':
      return <OrphanRow event={item.event} />;
    case 'conversation-error':
      return <ConversationErrorRow event={item.event} />;
    case 'condensation':
      return <CondensationRow item={item} />;
    case 'pause':
      return <PauseRow event={item.event} />;
    case 'system':
      return <SystemPromptRow event={item.event} />;
  }
}
