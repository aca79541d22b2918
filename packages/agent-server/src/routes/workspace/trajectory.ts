import type { Readable } from 'node:stream';
import { type ZipEntry, zipStream } from '@bosun/http';
import type { Conversation } from '../../conversations/conversation.ts';
import { conversationInfo } from '../../conversations/info.ts';
import type { ConversationService } from '../../conversations/service.ts';

/** Events read from the store at a time. */
const PAGE = 500;

/**
 * A conversation's trajectory as OpenHands lays it out, zipped while it is sent: `base_state.json` (its info,
 * secrets redacted) and `events/event-<index>-<id>.json`, one file per event in log order, read from the store a
 * page at a time as the archive reaches them.
 */
export function zipTrajectory(service: ConversationService, conversation: Conversation): Readable {
  return zipStream(trajectoryEntries(service, conversation));
}

function* trajectoryEntries(service: ConversationService, conversation: Conversation): Generator<ZipEntry> {
  yield { path: 'base_state.json', content: JSON.stringify(conversationInfo(conversation), null, 2) };
  yield { path: 'events/' };
  let index = 0;
  for (let afterSeq: number | undefined; ; ) {
    const rows = service.events.page(conversation.id, {
      descending: false,
      limit: PAGE,
      ...(afterSeq === undefined ? {} : { afterSeq }),
    });
    for (const event of rows) {
      yield { path: `events/event-${String(index).padStart(5, '0')}-${event.id}.json`, content: event.json };
      index += 1;
    }
    if (rows.length < PAGE) return;
    afterSeq = rows.at(-1)?.seq;
  }
}
