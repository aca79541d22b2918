import { fromRow } from './new-event.ts';
import type { ConversationRepository } from './repository.ts';

const PAGE = 500;

/**
 * The agent's final answer (OpenHands' `agent_final_response`): the message of its last `finish` call, else the
 * text of its last message, else an empty string. Reads the log from its end, a page at a time.
 */
export function agentFinalResponse(
  store: Pick<ConversationRepository, 'searchEvents'>,
  conversationId: string,
): string {
  let message: string | null = null;
  let fromSeq: number | undefined;
  for (;;) {
    const page = store.searchEvents(conversationId, { descending: true, limit: PAGE, fromSeq });
    for (const row of page) {
      if (row.kind !== 'ActionEvent' && row.kind !== 'MessageEvent') continue;
      const event = fromRow(row);
      if (event.kind === 'ActionEvent' && event.action?.kind === 'FinishAction') return event.action.message;
      if (message === null && event.kind === 'MessageEvent' && event.source === 'agent') {
        message = event.llm_message.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('');
      }
    }
    const last = page[page.length - 1];
    if (page.length < PAGE || !last) return message ?? '';
    fromSeq = last.seq - 1;
  }
}
